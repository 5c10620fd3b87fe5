/**
 * Text normalization and code-point offsets.
 *
 * Offsets on the wire are Unicode code points (what Python's str slicing
 * uses); JavaScript strings index UTF-16 code units. `CodePointText`
 * converts at the boundary. When a text has no astral characters the two
 * coincide and conversion is free.
 */
import { createHash } from "node:crypto";
import { lastAtMost } from "./sorted-search.js";

/** Strip a leading BOM and turn CRLF and lone CR into LF. Applied identically at ingest and verification. */
export function normalizeNewlines(text: string): string {
  let t = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (t.includes("\r")) t = t.replace(/\r\n?/g, "\n");
  return t;
}

/** Thrown by `decodeUtf8Strict`; `byteOffset` says where the first invalid sequence starts. */
export class Utf8DecodeError extends Error {
  constructor(readonly byteOffset: number) {
    super(`invalid UTF-8 at byte ${byteOffset}`);
  }
}

const strictDecoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decode bytes as strict UTF-8; on failure report the byte offset of the first bad sequence. */
export function decodeUtf8Strict(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new Utf8DecodeError(findInvalidUtf8(bytes));
  }
}

/** Byte offset of the first invalid UTF-8 sequence, or -1 if valid. */
export function findInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (c >= 0xc2 && c <= 0xdf) {
      need = 1;
      min = 0x80;
    } else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      min = 0x800;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      min = 0x10000;
    } else return i;
    let cp = c & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const cc = b[i + k];
      if (cc === undefined || (cc & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (cc & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return -1;
}

/** True when the bytes look binary: a NUL byte in the first 8 KiB. */
export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

/**
 * The UTF-16 byte order `bytes` appear to be in, if any: a byte-order mark, or
 * (without one) the mark of mostly-ASCII UTF-16 text, a NUL beside each
 * printable ASCII byte. Lets such a file be refused as a wrong encoding rather
 * than as binary; UTF-16 text never holds U+0000, so a NUL pair rules it out.
 */
export function detectUtf16(bytes: Uint8Array): "UTF-16LE" | "UTF-16BE" | undefined {
  if (bytes.length >= 2) {
    if (bytes[0] === 0xff && bytes[1] === 0xfe) return "UTF-16LE";
    if (bytes[0] === 0xfe && bytes[1] === 0xff) return "UTF-16BE";
  }
  const n = Math.min(bytes.length, 8192) & ~1;
  let asciiLe = 0;
  let asciiBe = 0;
  for (let i = 0; i < n; i += 2) {
    const a = bytes[i]!;
    const b = bytes[i + 1]!;
    if (a === 0 && b === 0) return undefined;
    if (b === 0 && isAsciiText(a)) asciiLe++;
    if (a === 0 && isAsciiText(b)) asciiBe++;
  }
  // Most code units ASCII in one byte order, and (nearly) none in the other.
  const units = n / 2;
  const enough = Math.max(2, units * 0.4);
  if (asciiLe >= enough && asciiBe <= units * 0.05) return "UTF-16LE";
  if (asciiBe >= enough && asciiLe <= units * 0.05) return "UTF-16BE";
  return undefined;
}

/** Tab, LF, CR or printable ASCII. */
function isAsciiText(byte: number): boolean {
  return byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte <= 0x7e);
}

/** Hex SHA-256 of a string's UTF-8 bytes. */
export function sha256(text: string | Uint8Array): string {
  return createHash("sha256").update(text).digest("hex");
}

/** Number of code points in a string. */
export function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

const HIGH_SURROGATE = /[\ud800-\udbff]/;

function isHighSurrogatePair(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < 0xd800 || c > 0xdbff || i + 1 >= s.length) return false;
  const d = s.charCodeAt(i + 1);
  return d >= 0xdc00 && d <= 0xdfff;
}

/**
 * A string with code-point <-> UTF-16 conversion and line lookup.
 *
 * @example
 *   const t = new CodePointText("a😀b");
 *   t.slice(1, 2) // "😀"
 */
export class CodePointText {
  readonly text: string;
  /** Code-point length. */
  readonly length: number;
  /** Sorted UTF-16 indexes of every astral pair's high surrogate; empty for BMP-only text. */
  private readonly astral: number[];
  /** UTF-16 index of each line start (line 1 starts at 0); built lazily. */
  private lineStarts: number[] | undefined;

  constructor(text: string) {
    this.text = text;
    const astral: number[] = [];
    // Most text has no surrogate at all: one native scan says so (a search builds one per hit).
    const first = text.search(HIGH_SURROGATE);
    for (let i = first < 0 ? text.length : first; i < text.length; i++) {
      if (isHighSurrogatePair(text, i)) {
        astral.push(i);
        i++;
      }
    }
    this.astral = astral;
    this.length = text.length - astral.length;
  }

  /** UTF-16 index of code-point offset `cp` (0..length). */
  toUtf16(cp: number): number {
    const a = this.astral;
    if (a.length === 0) return cp;
    // Each astral pair before the target adds one extra code unit: find k = number of
    // pairs whose code-point position (a[k] - k) is < cp.
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (a[mid]! - mid < cp) lo = mid + 1;
      else hi = mid;
    }
    return cp + lo;
  }

  /** Code-point offset of UTF-16 index `u` (must not split a surrogate pair). */
  toCodePoint(u: number): number {
    const a = this.astral;
    if (a.length === 0) return u;
    let lo = 0;
    let hi = a.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (a[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return u - lo;
  }

  /** Slice by code-point offsets. */
  slice(start: number, end: number): string {
    return this.text.slice(this.toUtf16(start), this.toUtf16(end));
  }

  /** 1-based line number containing code-point offset `cp`. */
  lineAt(cp: number): number {
    const starts = this.getLineStarts();
    return Math.max(0, lastAtMost(starts, this.toUtf16(cp))) + 1;
  }

  /** 1-based inclusive line range of the span [start, end) in code points. */
  lineRange(start: number, end: number): { startLine: number; endLine: number } {
    const startLine = this.lineAt(start);
    const endLine = end > start ? this.lineAt(end - 1) : startLine;
    return { startLine, endLine };
  }

  /** Find `needle` starting at code-point offset `from`; returns a code-point offset or -1. */
  indexOf(needle: string, from = 0): number {
    const u = this.text.indexOf(needle, this.toUtf16(from));
    return u < 0 ? -1 : this.toCodePoint(u);
  }

  private getLineStarts(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      const t = this.text;
      let i = t.indexOf("\n");
      while (i >= 0) {
        starts.push(i + 1);
        i = t.indexOf("\n", i + 1);
      }
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }
}

/** Code-unit order of two strings (what `<` compares), as a sort comparator: deterministic whatever order the input came in. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
