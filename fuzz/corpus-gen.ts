/**
 * Random fuzz documents for all three source classes, each with a MODEL the
 * oracle computes the expected indexed content from, independently of the
 * product's loaders:
 *
 * - text (`md`, `txt`, and URL `url-md` / `url-txt`): the file is the model's
 *   raw string (astral characters, CJK, combining marks, CRLF / CR / mixed line
 *   ends, sometimes a BOM); content = BOM stripped, CRLF and CR turned into LF.
 * - HTML (`html`, `url-html`): blocks (heading level + text) rendered with
 *   random whitespace and entities; content = the block texts (headings as ATX
 *   headings) joined by a blank line, whitespace collapsed.
 * - PDF (`pdf`): pages of lines drawn with pdf-lib (standard fonts, so only
 *   WinAnsi text, plus whole lines of astral glyphs via a /ToUnicode map);
 *   content = lines joined by LF, pages by a blank line.
 *
 * Every document carries a unique marker word in most blocks so a real search
 * for it returns many of its chunks.
 */
import { createHash } from "node:crypto";
import { ASTRAL_GLYPHS, makePdf } from "../test/support/pdf-fixtures.js";
import { cpLength } from "./codepoints.js";
import { Rng } from "./rng.js";

/** What kind of source a fuzz document is. */
export type DocKind = "md" | "txt" | "pdf" | "html" | "url-md" | "url-txt" | "url-html";

/** All document kinds. */
export const DOC_KINDS: readonly DocKind[] = ["md", "txt", "pdf", "html", "url-md", "url-txt", "url-html"];

/** The source class a kind is indexed as. */
export function classOf(kind: DocKind): "text" | "extracted" | "snapshot" {
  if (kind === "md" || kind === "txt") return "text";
  if (kind === "pdf" || kind === "html") return "extracted";
  return "snapshot";
}

/** A text-class document: the file (or served page) is exactly `raw`, UTF-8 encoded. */
export interface TextModel {
  type: "text";
  raw: string;
}

/** One HTML block: `level` 0 is a paragraph, 1-6 a heading. */
export interface HtmlBlock {
  level: number;
  text: string;
}

/** An HTML document: blocks, rendered with whitespace chosen by `wsSeed`. */
export interface HtmlModel {
  type: "html";
  blocks: HtmlBlock[];
  wsSeed: number;
  crlf: boolean;
}

/** A PDF: pages of lines. */
export interface PdfModel {
  type: "pdf";
  pages: string[][];
}

/** A document's model: what the oracle derives its expected content from. */
export type DocModel = TextModel | HtmlModel | PdfModel;

/** One document of a fuzz case. */
export interface DocSpec {
  /** File stem, unique within the case (also the URL path stem). */
  name: string;
  /** Sub-directory under the base dir ("" for the base dir itself). */
  dir: string;
  kind: DocKind;
  /** Lowercase ASCII word unique to this document. */
  marker: string;
  model: DocModel;
}

const WORDS = (
  "river stone lantern harbor signal meadow copper ember glacier orbit thread anchor basalt willow quartz " +
  "falcon summit canyon delta prism beacon tundra cobalt velvet marble saddle compass fjord atlas cinder " +
  "index citation offset verify chunk passage source ledger archive mirror"
).split(" ");

const LATIN1_WORDS = ["café", "déjà", "naïve", "façade", "über", "smörgås", "jalapeño", "Straße", "crème", "piñata"];

const CJK_WORDS = ["検索", "引用", "東京都", "数据库", "文本", "한국어", "索引", "かな", "カタカナ", "漢字"];

/** Astral characters: emoji, CJK extension B, mathematical letters. */
const ASTRAL = ["😀", "🎉", "🚀", "𠀀", "𪚥", "𝔘", "𝕏", "🧪"];

/** Marks and oddities that must survive byte for byte (combining accent, ZWJ sequence, U+FFFD itself). */
const ODD = ["e\u0301", "👩\u200d💻", "\ufffd", "Å", "Ω"];

/** A lowercase word made unique by `id`: the document's search marker. */
export function markerFor(id: number): string {
  let s = "";
  let n = id >>> 0;
  do {
    s += String.fromCharCode(97 + (n % 26));
    n = Math.floor(n / 26);
  } while (n > 0);
  return `zq${s}x`;
}

/** A random word for a text-class document. */
function textWord(rng: Rng): string {
  const r = rng.float();
  if (r < 0.68) return rng.pick(WORDS);
  if (r < 0.78) return rng.pick(LATIN1_WORDS);
  if (r < 0.88) return rng.pick(CJK_WORDS);
  if (r < 0.96) return rng.pick(WORDS) + rng.pick(ASTRAL);
  return rng.pick(ODD);
}

/** A random word for a PDF line: WinAnsi-encodable only. */
function pdfWord(rng: Rng): string {
  return rng.chance(0.85) ? rng.pick(WORDS) : rng.pick(LATIN1_WORDS);
}

function words(rng: Rng, n: number, word: (r: Rng) => string, marker?: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(word(rng));
  if (marker !== undefined) out.splice(rng.int(0, out.length + 1), 0, marker);
  return out;
}

/** Random text that a mutation inserts, in the alphabet the document class can carry. */
export function insertionText(rng: Rng, kind: DocKind): string {
  const pdf = kind === "pdf";
  const n = rng.int(1, 6);
  const ws = words(rng, n, pdf ? pdfWord : textWord);
  let s = ws.join(" ");
  // Sometimes a line break inside the inserted text (never at its edges: see mutations.ts).
  if (!pdf && n > 1 && rng.chance(0.3)) s = ws.slice(0, 1).join(" ") + (rng.chance(0.5) ? "\n" : "\r\n") + ws.slice(1).join(" ");
  return rng.chance(0.5) ? ` ${s} ` : s;
}

/** Generate a document of `kind`. */
export function generateDoc(rng: Rng, kind: DocKind, name: string, markerId: number): DocSpec {
  const marker = markerFor(markerId);
  const dir = rng.chance(0.3) ? "sub" : "";
  let model: DocModel;
  if (kind === "pdf") model = generatePdf(rng, marker);
  else if (kind === "html" || kind === "url-html") model = generateHtml(rng, marker);
  else model = generateText(rng, marker, kind === "md" || kind === "url-md");
  return { name, dir: kind.startsWith("url-") ? "" : dir, kind, marker, model };
}

function generateText(rng: Rng, marker: string, markdown: boolean): TextModel {
  const style = rng.pick(["lf", "lf", "crlf", "cr", "mixed"] as const);
  const eol = (): string => (style === "mixed" ? rng.pick(["\n", "\r\n", "\r"]) : style === "crlf" ? "\r\n" : style === "cr" ? "\r" : "\n");
  const lines: string[] = [];
  const blocks = rng.int(3, 11);
  if (markdown) lines.push(`# ${words(rng, rng.int(1, 4), textWord).join(" ")}`, "");
  for (let b = 0; b < blocks; b++) {
    if (markdown && rng.chance(0.3)) lines.push(`${"#".repeat(rng.int(2, 4))} ${words(rng, rng.int(1, 4), textWord).join(" ")}`, "");
    const withMarker = b === 0 || rng.chance(0.85) ? marker : undefined;
    if (markdown && rng.chance(0.2)) {
      for (let i = rng.int(2, 5); i > 0; i--) lines.push(`- ${words(rng, rng.int(2, 8), textWord, i === 1 ? withMarker : undefined).join(" ")}`);
    } else {
      const para = words(rng, rng.int(8, 40), textWord, withMarker);
      // Wrap the paragraph at random widths so line numbers matter.
      let line: string[] = [];
      for (const w of para) {
        line.push(w);
        if (line.length >= 6 && rng.chance(0.2)) {
          lines.push(line.join(" ") + (rng.chance(0.3) ? "." : ""));
          line = [];
        }
      }
      if (line.length) lines.push(line.join(" ") + ".");
    }
    lines.push("");
  }
  let raw = "";
  for (const l of lines) raw += l + eol();
  if (rng.chance(0.1)) raw = "\ufeff" + raw;
  return { type: "text", raw };
}

function generateHtml(rng: Rng, marker: string): HtmlModel {
  const blocks: HtmlBlock[] = [{ level: 1, text: words(rng, rng.int(1, 4), textWord).join(" ") }];
  let marked = false;
  for (let b = rng.int(3, 10); b > 0; b--) {
    if (rng.chance(0.25)) blocks.push({ level: rng.int(2, 4), text: words(rng, rng.int(1, 5), textWord).join(" ") });
    const mark = !marked || rng.chance(0.85);
    marked = true;
    blocks.push({ level: 0, text: words(rng, rng.int(6, 35), textWord, mark ? marker : undefined).join(" ") });
  }
  return { type: "html", blocks, wsSeed: rng.int(0, 2 ** 31), crlf: rng.chance(0.3) };
}

function generatePdf(rng: Rng, marker: string): PdfModel {
  const pages: string[][] = [];
  // The first text line always carries the marker, even when glyph lines come before it.
  let markerPlaced = false;
  const textLine = (lines: string[], mark: boolean): void => {
    lines.push(...wrapPdfLine(words(rng, rng.int(3, 8), pdfWord, mark ? marker : undefined).join(" ")));
    markerPlaced ||= mark;
  };
  for (let p = rng.int(1, 4); p > 0; p--) {
    const lines: string[] = [];
    for (let l = rng.int(3, 10); l > 0; l--) {
      if (rng.chance(0.08)) {
        const glyphs = Object.keys(ASTRAL_GLYPHS);
        lines.push(Array.from({ length: rng.int(1, 4) }, () => rng.pick(glyphs)).join(""));
      } else {
        textLine(lines, !markerPlaced || rng.chance(0.7));
      }
    }
    pages.push(lines);
  }
  // A document of glyph lines only would have nothing to search for.
  if (!markerPlaced) textLine(pages[pages.length - 1]!, true);
  return { type: "pdf", pages };
}

/**
 * Longest PDF line, in characters. The fixture pages are 420 pt wide and
 * pdf.js drops glyphs drawn past the page edge, so a longer line would not
 * come back whole; 56 Helvetica characters of our words fit.
 */
const PDF_LINE_MAX = 56;

/** Wrap a PDF line at spaces so it fits the page (a word longer than the limit is split). */
export function wrapPdfLine(line: string): string[] {
  const out: string[] = [];
  let cur = "";
  for (const word of line.split(" ")) {
    let w = word;
    while (cpLength(w) > PDF_LINE_MAX) {
      if (cur) out.push(cur);
      cur = "";
      out.push(Array.from(w).slice(0, PDF_LINE_MAX).join(""));
      w = Array.from(w).slice(PDF_LINE_MAX).join("");
    }
    if (!cur) cur = w;
    else if (cpLength(cur) + 1 + cpLength(w) <= PDF_LINE_MAX) cur += " " + w;
    else {
      out.push(cur);
      cur = w;
    }
  }
  if (cur) out.push(cur);
  return out;
}

// ---------------------------------------------------------------------------
// The oracle's model of each loader: content from the model (or the raw text).

/** What the text loader makes of a raw string: BOM stripped, CRLF and lone CR turned into LF. */
export function normalizeTextModel(raw: string): string {
  const noBom = raw.startsWith("\ufeff") ? raw.slice(1) : raw;
  let out = "";
  for (let i = 0; i < noBom.length; i++) {
    const c = noBom[i]!;
    if (c === "\r") {
      out += "\n";
      if (noBom[i + 1] === "\n") i++;
    } else out += c;
  }
  return out;
}

/** The indexed content of an HTML model. */
export function htmlContent(m: HtmlModel): string {
  return m.blocks.map((b) => (b.level > 0 ? `${"#".repeat(b.level)} ${b.text}` : b.text)).join("\n\n");
}

/** The indexed content of a PDF model. */
export function pdfContent(m: PdfModel): string {
  return m.pages.map((lines) => lines.join("\n")).join("\n\n");
}

/** Code-point offset where each page of a PDF model starts. */
export function pdfPageStarts(m: PdfModel): number[] {
  const starts: number[] = [];
  let at = 0;
  for (const [i, lines] of m.pages.entries()) {
    if (i > 0) at += 2;
    starts.push(at);
    at += cpLength(lines.join("\n"));
  }
  return starts;
}

/** The content the product should index for a model. */
export function modelContent(m: DocModel): string {
  if (m.type === "text") return normalizeTextModel(m.raw);
  if (m.type === "html") return htmlContent(m);
  return pdfContent(m);
}

// ---------------------------------------------------------------------------
// Turning edited content back into a model (for extracted documents).

/** HTML's whitespace (what the HTML serializer collapses); PDF text collapses any JS whitespace. */
const HTML_WS = /[ \t\n\f\r\u00a0]+/g;
const PDF_WS = /\s+/gu;

function collapse(s: string, ws: RegExp = PDF_WS): string {
  return s.replace(ws, " ").replace(/^ | $/g, "");
}

/** The HTML model whose content is `content` after whitespace canonicalization. */
export function htmlModelFromContent(content: string, like: HtmlModel): HtmlModel {
  const blocks: HtmlBlock[] = [];
  for (const part of content.split(/\n{2,}/)) {
    const heading = /^(#{1,6}) (.*)$/su.exec(part);
    const level = heading ? heading[1]!.length : 0;
    const text = collapse(heading ? heading[2]! : part, HTML_WS);
    if (text) blocks.push({ level, text });
    else if (level > 0) blocks.push({ level: 0, text: "#".repeat(level) });
  }
  return { ...like, blocks };
}

/** Whether a PDF line can be drawn: all WinAnsi text, or only astral glyphs (see pdf-fixtures). */
function drawableLine(line: string): string {
  const chars = Array.from(line);
  if (chars.length > 0 && chars.every((c) => c in ASTRAL_GLYPHS)) return line;
  // Latin-1 only (WinAnsi covers it for the letters we use); astral glyphs mixed with text are dropped.
  return collapse(chars.filter((c) => c.codePointAt(0)! <= 0xff).join(""));
}

/** The PDF model whose content is `content` after canonicalization (what can really be drawn). */
export function pdfModelFromContent(content: string): PdfModel {
  const pages: string[][] = [];
  for (const part of content.split(/\n{2,}/)) {
    const lines = part
      .split("\n")
      .map(drawableLine)
      .filter((l) => l.length > 0)
      .flatMap(wrapPdfLine);
    if (lines.length) pages.push(lines);
  }
  return { type: "pdf", pages: pages.length ? pages : [[]] };
}

// ---------------------------------------------------------------------------
// Rendering files.

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" };

/** The HTML file for a model (random but model-determined whitespace, entities, dropped elements). */
export function renderHtml(m: HtmlModel): string {
  const rng = new Rng(m.wsSeed);
  const nl = m.crlf ? "\r\n" : "\n";
  const esc = (s: string): string => s.replace(/[&<>"]/g, (c) => ESCAPES[c]!);
  const space = (): string => rng.pick([" ", " ", " ", "  ", nl, `${nl}  `, "\t"]);
  const inline = (text: string): string =>
    text
      .split(" ")
      .map((w, i) => (i > 0 ? space() : "") + esc(w))
      .join("");
  let out = `<!doctype html>${nl}<html><head><meta charset="utf-8"><title>${esc(m.blocks[0]?.text ?? "doc")}</title>`;
  out += `<style>p{margin:0}</style><script>var hidden = "zzscriptonly";</script></head>${nl}<body>${nl}`;
  for (const b of m.blocks) {
    const tag = b.level > 0 ? `h${b.level}` : "p";
    const pad = rng.chance(0.3) ? space() : "";
    out += `<${tag}>${pad}${inline(b.text)}${pad}</${tag}>${nl}`;
    if (rng.chance(0.15)) out += `<!-- comment ${rng.int(0, 1000)} -->${nl}`;
  }
  return `${out}</body></html>${nl}`;
}

const pdfCache = new Map<string, Uint8Array>();
let pdfCacheHits = 0;

/** PDF bytes for a model; identical models reuse the bytes already generated (pdf-lib output is deterministic). */
export async function renderPdf(m: PdfModel): Promise<Uint8Array> {
  const key = createHash("sha256").update(JSON.stringify(m.pages)).digest("hex");
  const hit = pdfCache.get(key);
  if (hit) {
    pdfCacheHits++;
    return hit;
  }
  const bytes = await makePdf(m.pages);
  if (pdfCache.size > 512) pdfCache.clear();
  pdfCache.set(key, bytes);
  return bytes;
}

/** How many PDFs were reused from the cache (reported in the run summary). */
export function pdfCacheStats(): { hits: number; size: number } {
  return { hits: pdfCacheHits, size: pdfCache.size };
}

/** The bytes of a document's file (or served page). */
export async function renderDoc(m: DocModel): Promise<Uint8Array> {
  if (m.type === "text") return new Uint8Array(Buffer.from(m.raw, "utf8"));
  if (m.type === "html") return new Uint8Array(Buffer.from(renderHtml(m), "utf8"));
  return renderPdf(m);
}

/** File extension (with dot) for a kind. */
export function extensionOf(kind: DocKind): string {
  switch (kind) {
    case "md":
    case "url-md":
      return ".md";
    case "txt":
    case "url-txt":
      return ".txt";
    case "pdf":
      return ".pdf";
    default:
      return ".html";
  }
}

/** Content type a URL document is served with. */
export function contentTypeOf(kind: DocKind): string {
  if (kind === "url-md") return "text/markdown; charset=utf-8";
  if (kind === "url-txt") return "text/plain; charset=utf-8";
  return "text/html; charset=utf-8";
}
