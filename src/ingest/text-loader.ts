/**
 * The `text` source class loader: a file's bytes, size-capped, refused when
 * binary or not strict UTF-8, BOM stripped and newlines normalized. Verification
 * reads through the same function, so both sides normalize identically.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { TextDecoder } from "node:util";
import { GroundkitError } from "../core/errors.js";
import { decodeUtf8Strict, looksBinary, normalizeNewlines, Utf8DecodeError } from "../core/text.js";

/** Identity of the text loader; part of every text document's fingerprint. */
export const TEXT_LOADER_IDENTITY = "groundkit-text/1";

/**
 * Read a file's bytes, refusing it by name when larger than `maxBytes`.
 *
 * The system calls are synchronous on purpose: for the small files ingest and
 * verification read, going through the thread pool cost about 170 µs of
 * round trips per file against about 4 µs for the calls themselves (measured on
 * the bench corpus), and blocks the event loop no longer than the read itself.
 */
export async function readFileCapped(path: string, maxBytes: number, label = path): Promise<Buffer> {
  return readFileCappedSync(path, maxBytes, label);
}

function readFileCappedSync(path: string, maxBytes: number, label: string): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO (or other special file) swapped in for a source must not block
    // forever waiting for a writer; regular files ignore the flag, and fstat below refuses the rest.
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw fsError(err, label);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new GroundkitError("FILE_UNREADABLE", `${label} is not a regular file.`);
    if (st.size > maxBytes) {
      throw new GroundkitError("FILE_TOO_LARGE", `${label} is ${st.size} bytes, over the ${maxBytes}-byte cap.`);
    }
    // Read at most cap+1 bytes so a file that grows after fstat is still refused, never truncated.
    const buf = Buffer.allocUnsafe(Math.min(st.size, maxBytes) + 1);
    let filled = 0;
    for (;;) {
      const bytesRead = readSync(fd, buf, filled, buf.length - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
      if (filled === buf.length) break;
    }
    if (filled > maxBytes) {
      throw new GroundkitError("FILE_TOO_LARGE", `${label} grew past the ${maxBytes}-byte cap while being read.`);
    }
    return buf.subarray(0, filled);
  } catch (err) {
    throw err instanceof GroundkitError ? err : fsError(err, label);
  } finally {
    closeSync(fd);
  }
}

/**
 * Decode text-class bytes to normalized content, refusing binary and invalid
 * UTF-8 by name. A fetched resource may declare another charset; it is decoded
 * strictly too.
 */
export function decodeTextContent(bytes: Uint8Array, label: string, charset?: string): string {
  if (looksBinary(bytes)) throw new GroundkitError("FILE_BINARY", `${label} looks binary (it contains NUL bytes).`);
  if (charset && !/^utf-?8$/i.test(charset)) return decodeDeclaredCharset(bytes, label, charset);
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

/** Map a filesystem error to a typed error naming the file. */
export function fsError(err: unknown, label: string): GroundkitError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT" || code === "ENOTDIR") {
    return new GroundkitError("SOURCE_NOT_FOUND", `${label} does not exist.`, undefined, { cause: err });
  }
  return new GroundkitError("FILE_UNREADABLE", `${label} cannot be read (${code ?? "error"}).`, undefined, { cause: err });
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
