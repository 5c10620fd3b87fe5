/**
 * The `text` source class loader: a file's bytes (read by the guarded read in
 * source/contained-read.ts), refused when binary or not strict UTF-8, BOM
 * stripped and newlines normalized. Verification decodes through the same
 * function, so both sides normalize identically.
 */
import { TextDecoder } from "node:util";
import { GroundkitError } from "../core/errors.js";
import { decodeUtf8Strict, detectUtf16, looksBinary, normalizeNewlines, Utf8DecodeError } from "../core/text.js";

/** Identity of the text loader; part of every text document's fingerprint. */
export const TEXT_LOADER_IDENTITY = "groundkit-text/1";

/**
 * Decode text-class bytes to normalized content, refusing UTF-16, binary and
 * invalid UTF-8 by name. A fetched resource may declare another charset; it is decoded
 * strictly too.
 */
export function decodeTextContent(bytes: Uint8Array, label: string, charset?: string): string {
  const declared = charset && !/^utf-?8$/i.test(charset) ? charset : undefined;
  const utf16 = declared ? undefined : detectUtf16(bytes);
  if (utf16) {
    throw new GroundkitError("FILE_NOT_UTF8", `${label} looks like ${utf16} text (a byte-order mark or NUL bytes in alternating positions), not UTF-8.`, {
      encoding: utf16,
    });
  }
  if (looksBinary(bytes)) throw new GroundkitError("FILE_BINARY", `${label} looks binary (it contains NUL bytes).`);
  if (declared) return decodeDeclaredCharset(bytes, label, declared);
  try {
    return normalizeNewlines(decodeUtf8Strict(bytes));
  } catch (err) {
    if (err instanceof Utf8DecodeError) {
      throw new GroundkitError("FILE_NOT_UTF8", `${label} is not valid UTF-8 (first bad byte at offset ${err.byteOffset}).`, {
        byte_offset: err.byteOffset,
      });
    }
    throw err;
  }
}

function decodeDeclaredCharset(bytes: Uint8Array, label: string, charset: string): string {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset, { fatal: true });
  } catch {
    throw new GroundkitError("FILE_NOT_UTF8", `${label} declares charset '${charset}', which is not supported.`);
  }
  try {
    return normalizeNewlines(decoder.decode(bytes));
  } catch {
    throw new GroundkitError("FILE_NOT_UTF8", `${label} is not valid ${charset}.`);
  }
}
