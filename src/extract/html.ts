/**
 * HTML text extraction: decode the bytes strictly in the document's charset, then
 * serialize with the block-aware serializer (html-serializer.ts) on htmlparser2.
 *
 * Charset, in WHATWG precedence order: a byte order mark, else `hints.charset`,
 * else a `<meta charset>` / `<meta http-equiv="content-type">` within the first
 * 1024 bytes, else UTF-8. Labels are whatever Node's `TextDecoder` supports; an
 * unsupported label is skipped, as browsers do. Decoding is fatal: bytes invalid
 * in the chosen charset are an error, never mojibake or U+FFFD.
 */
import { GroundkitError } from "../core/errors.js";
import { findInvalidUtf8, normalizeNewlines } from "../core/text.js";
import type { ExtractHints, ExtractOptions, ExtractedText, Extractor } from "./extractor.js";
import { resolveExtractionLimits } from "./limits.js";
import { serializeHtml } from "./html-serializer.js";
import { installedPackage } from "./package-identity.js";

/** How many leading bytes are searched for a `<meta>` charset declaration. */
export const HTML_META_PRESCAN_BYTES = 1024;

/** The charset chosen for a document and why. */
export interface HtmlCharset {
  /** Canonical WHATWG encoding name, e.g. "utf-8", "windows-1252", "shift_jis". */
  encoding: string;
  source: "byte order mark" | "charset hint" | "<meta> declaration" | "default";
}

/**
 * The revision of our serializer's text, part of the extractor identity: a
 * citation of text an earlier revision wrote is re-checked against that text
 * by nothing but that revision, so it reads `unresolvable` naming both rather
 * than `drifted`, and the next ingest re-extracts the page. 2: `<pre>` without
 * Markdown fences, permalink anchors dropped (ADR 0029).
 */
export const HTML_TEXT_REVISION = "groundkit-html/2";

/**
 * Build the HTML extractor; its identity is htmlparser2's installed version
 * and {@link HTML_TEXT_REVISION}.
 *
 * @example
 *   const html = await createHtmlExtractor();
 *   (await html.extract(new TextEncoder().encode("<h1>Hi</h1>"))).text // "# Hi"
 * @throws Error when htmlparser2 is missing or does not parse a trivial document.
 */
export async function createHtmlExtractor(): Promise<Extractor> {
  const pkg = installedPackage("htmlparser2");
  // Probe: an installed-but-broken parser must show up here, not on the first real document.
  const probe = serializeHtml("<p>probe</p>");
  if (probe.text !== "probe") throw new Error(`htmlparser2 ${pkg.version} failed a smoke test`);
  return new HtmlExtractor(`${pkg.identity}+${HTML_TEXT_REVISION}`);
}

class HtmlExtractor implements Extractor {
  readonly kind = "html" as const;

  constructor(readonly identity: string) {}

  async extract(bytes: Uint8Array, hints?: ExtractHints, options?: ExtractOptions): Promise<ExtractedText> {
    const { maxOutputCodePoints } = resolveExtractionLimits(options?.limits);
    const charset = detectHtmlCharset(bytes, hints?.charset);
    const html = normalizeNewlines(decodeStrict(bytes, charset));
    let serialized: ReturnType<typeof serializeHtml>;
    try {
      serialized = serializeHtml(html, { maxOutputCodePoints, label: options?.label });
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new GroundkitError("EXTRACTION_FAILED", `The HTML could not be parsed: ${message}`, undefined, { cause: err });
    }
    const result: ExtractedText = { text: serialized.text, sourceLines: serialized.sourceLines };
    if (serialized.codeBlocks.length > 0) result.codeBlocks = serialized.codeBlocks;
    if (serialized.title !== undefined) result.title = serialized.title;
    return result;
  }
}

/**
 * Decide which charset `bytes` are in (see the module comment for the order).
 *
 * @example
 *   detectHtmlCharset(new TextEncoder().encode('<meta charset="latin1">')) // { encoding: "windows-1252", source: "<meta> declaration" }
 */
export function detectHtmlCharset(bytes: Uint8Array, hint?: string): HtmlCharset {
  const bom = bomEncoding(bytes);
  if (bom) return { encoding: bom, source: "byte order mark" };
  const hinted = hint === undefined ? undefined : canonicalEncoding(hint);
  if (hinted) return { encoding: hinted, source: "charset hint" };
  const declared = metaCharset(bytes);
  if (declared) return { encoding: declared, source: "<meta> declaration" };
  return { encoding: "utf-8", source: "default" };
}

function bomEncoding(b: Uint8Array): string | undefined {
  if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return "utf-8";
  if (b[0] === 0xfe && b[1] === 0xff) return "utf-16be";
  if (b[0] === 0xff && b[1] === 0xfe) return "utf-16le";
  return undefined;
}

/** The canonical name for a charset label, or undefined if Node cannot decode it. */
function canonicalEncoding(label: string): string | undefined {
  try {
    return new TextDecoder(label.trim()).encoding;
  } catch {
    return undefined;
  }
}

/**
 * A simplified WHATWG prescan: the first `<meta>` in the first 1024 bytes (outside
 * comments) whose `charset`, or `http-equiv="content-type"` `content`, names a
 * supported encoding.
 */
function metaCharset(bytes: Uint8Array): string | undefined {
  // Latin-1 maps each byte to one char, so ASCII markup reads the same in any ASCII-compatible charset.
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, HTML_META_PRESCAN_BYTES)).toString("latin1");
  const tags = /<!--[\s\S]*?(?:-->|$)|<meta(?=[\s/])([^>]*)>/gi;
  for (let m = tags.exec(head); m; m = tags.exec(head)) {
    const attributes = m[1];
    if (attributes === undefined) continue; // a comment
    const attrs = parseAttributes(attributes.replace(/\/\s*$/, "")); // `<meta charset=utf-8/>`
    let label = attrs.get("charset");
    if (label === undefined && attrs.get("http-equiv")?.toLowerCase() === "content-type") {
      const content = attrs.get("content") ?? "";
      const cs = /charset\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s;"']+))/i.exec(content);
      label = cs?.[1] ?? cs?.[2] ?? cs?.[3];
    }
    if (label === undefined) continue;
    // Node cannot decode x-user-defined; WHATWG maps it to windows-1252 when declared in <meta>.
    if (label.trim().toLowerCase() === "x-user-defined") return "windows-1252";
    const encoding = canonicalEncoding(label);
    if (!encoding) continue;
    // WHATWG: a document whose <meta> could be read as ASCII is not UTF-16, whatever it claims.
    if (encoding === "utf-16le" || encoding === "utf-16be") return "utf-8";
    return encoding;
  }
  return undefined;
}

function parseAttributes(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  const re = /([^\s=/>"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g;
  for (let m = re.exec(source); m; m = re.exec(source)) {
    const name = m[1]!.toLowerCase();
    if (!attrs.has(name)) attrs.set(name, m[2] ?? m[3] ?? m[4] ?? "");
  }
  return attrs;
}

/**
 * WHATWG windows-1252 for bytes 0x80-0x9F (every other byte maps to the same code point).
 * Node 20's TextDecoder decodes "windows-1252" (and every label aliased to it: latin1,
 * iso-8859-1, ascii…) as ISO-8859-1, turning 0x80 into U+0080 instead of "€"; later Node
 * versions fixed that. Decoding with our own table keeps the text correct and identical
 * across Node versions, which verification of an `extracted` citation depends on.
 */
const WINDOWS_1252_C1 =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f" +
  "\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function decodeWindows1252(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString("latin1")
    .replace(/[\u0080-\u009f]/g, (c) => WINDOWS_1252_C1[c.charCodeAt(0) - 0x80]!);
}

function decodeStrict(bytes: Uint8Array, charset: HtmlCharset): string {
  // windows-1252 maps all 256 bytes, so it cannot fail.
  if (charset.encoding === "windows-1252") return decodeWindows1252(bytes);
  try {
    // ignoreBOM: false strips a BOM of the chosen encoding rather than keeping U+FEFF.
    return new TextDecoder(charset.encoding, { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch (err) {
    if (charset.encoding === "utf-8") {
      const byteOffset = findInvalidUtf8(bytes);
      throw new GroundkitError(
        "FILE_NOT_UTF8",
        `The HTML is not valid UTF-8 (charset from ${charset.source}): invalid byte sequence at byte ${byteOffset}. ` +
          "If it uses another encoding, declare it with <meta charset>.",
        { encoding: charset.encoding, charsetSource: charset.source, byteOffset },
        { cause: err },
      );
    }
    throw new GroundkitError(
      "EXTRACTION_FAILED",
      `The HTML is not valid ${charset.encoding} (charset from ${charset.source}): it contains bytes that encoding cannot decode.`,
      { encoding: charset.encoding, charsetSource: charset.source },
      { cause: err },
    );
  }
}
