/**
 * Editing a document's content at code-point offsets, whatever its class:
 * a text file is edited in its raw form (so CRLF, CR and a BOM survive where
 * untouched); an HTML or PDF document is edited in its extracted content and
 * re-rendered from the resulting model. Each edit returns the new bytes and
 * what verification must now see (the oracle's model of the loader).
 */
import { cps } from "./codepoints.js";
import {
  htmlContent,
  htmlModelFromContent,
  pdfContent,
  pdfModelFromContent,
  renderHtml,
  renderPdf,
  type DocModel,
} from "./corpus-gen.js";
import { textAvailability, type Availability } from "./oracle.js";

/** Replace the content code points [start, end) with `insert`. */
export interface ContentEdit {
  start: number;
  end: number;
  insert: string;
}

/**
 * Map content code-point offsets to UTF-16 indexes of the raw text (BOM
 * skipped, CRLF counted as one code point). Entry `L` is the raw length.
 */
export function rawIndexMap(raw: string): number[] {
  const map: number[] = [];
  let i = raw.startsWith("\ufeff") ? 1 : 0;
  while (i < raw.length) {
    map.push(i);
    const c = raw.charCodeAt(i);
    if (c === 13) i += raw.charCodeAt(i + 1) === 10 ? 2 : 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < raw.length) i += 2;
    else i += 1;
  }
  map.push(raw.length);
  return map;
}

/** Byte offset in the UTF-8 file of content code point `at` (a text-class document). */
export function byteOffsetOf(raw: string, at: number): number {
  const map = rawIndexMap(raw);
  return Buffer.byteLength(raw.slice(0, map[Math.min(at, map.length - 1)]), "utf8");
}

/** The result of an edit: bytes to write and what they read as. */
export interface EditResult {
  bytes: Uint8Array;
  avail: Availability;
  model: DocModel;
}

/** Decode bytes known to be valid UTF-8 (the current text of a document we wrote). */
export function utf8(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** Apply `edit` to a document of the given model type whose current bytes are `bytes` and content `content`. */
export async function applyEdit(model: DocModel, bytes: Uint8Array, content: string, edit: ContentEdit): Promise<EditResult> {
  if (model.type === "text") {
    const raw = utf8(bytes);
    const map = rawIndexMap(raw);
    const next = raw.slice(0, map[edit.start]) + edit.insert + raw.slice(map[edit.end]);
    const out = new Uint8Array(Buffer.from(next, "utf8"));
    return { bytes: out, avail: textAvailability(out), model: { type: "text", raw: next } };
  }
  const c = cps(content);
  const edited = c.slice(0, edit.start).join("") + edit.insert + c.slice(edit.end).join("");
  if (model.type === "html") {
    const next = htmlModelFromContent(edited, model);
    return { bytes: new Uint8Array(Buffer.from(renderHtml(next), "utf8")), avail: { readable: true, content: htmlContent(next) }, model: next };
  }
  const next = pdfModelFromContent(edited);
  return { bytes: await renderPdf(next), avail: { readable: true, content: pdfContent(next) }, model: next };
}

/** Pick an offset in the inclusive range [lo, hi] from a fraction in [0, 1). */
export function at(lo: number, hi: number, f: number): number {
  if (hi <= lo) return lo;
  return Math.min(hi, lo + Math.floor(f * (hi - lo + 1)));
}

/** Replacement code points for a same-length edit: each differs from the one it replaces. */
export function sameLengthReplacement(original: string, alphabet: readonly string[], f: number): string {
  let i = Math.floor(f * alphabet.length);
  return cps(original)
    .map((ch) => {
      let r = alphabet[i++ % alphabet.length]!;
      if (r === ch) r = alphabet[i++ % alphabet.length]!;
      return r;
    })
    .join("");
}

/** Letters any class can carry; text and HTML also get CJK and astral replacements (same code points, other byte lengths). */
export const LATIN_REPLACEMENTS = "qwxzjkvbpy".split("");
export const WIDE_REPLACEMENTS = ["q", "検", "😀", "x", "𠀀", "é", "z", "索", "🚀", "k"];
