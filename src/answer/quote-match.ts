/**
 * Finding a quote in a text verbatim, after whitespace normalisation only:
 * any run of whitespace (spaces, tabs, line breaks, no-break spaces) in either
 * counts as one space, and the quote's leading and trailing whitespace is
 * ignored. Nothing else is forgiven: case, punctuation, quote marks, hyphens
 * and ellipses must match exactly, so a found quote is the source's wording.
 * A quote matches whole words only: "80 days" is not in "180 days", nor "safe"
 * in "unsafe" (invisible format characters such as U+FEFF or U+200B inside a
 * word do not split it, and U+FEFF is not whitespace), nor "30" in "30.5".
 * Offsets come back in code points of the searched text.
 */
import { CodePointText } from "../core/text.js";

/** One occurrence, as code-point offsets [start, end) of the searched text. */
export interface QuoteSpan {
  start: number;
  end: number;
}

/** `text` with each whitespace run as one space, and for each kept UTF-16 unit its index in `text`. */
interface Normalised {
  text: string;
  /** origin[i] = index in the original of normalised unit i. */
  origin: number[];
}

/** Whitespace, except U+FEFF (a byte-order mark or zero-width no-break space is not a space). */
const WHITESPACE = /[^\S\uFEFF]/;
const WHITESPACE_RUNS = /[^\S\uFEFF]+/g;
const EDGE_WHITESPACE = /^[^\S\uFEFF]+|[^\S\uFEFF]+$/g;
/** A character that continues a word: letters, marks, digits, connector punctuation. */
const WORD = /[\p{L}\p{M}\p{N}\p{Pc}]/u;
/** Invisible format characters (U+FEFF, U+200B-U+200D, soft hyphen…): they sit inside words without ending them. */
const FORMAT = /\p{Cf}/u;

function normalise(text: string): Normalised {
  let out = "";
  const origin: number[] = [];
  let inSpace = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (WHITESPACE.test(ch)) {
      if (!inSpace) {
        out += " ";
        origin.push(i);
        inSpace = true;
      }
      continue;
    }
    inSpace = false;
    out += ch;
    origin.push(i);
  }
  return { text: out, origin };
}

/** The quote as it is matched: trimmed, whitespace runs collapsed. */
export function normaliseQuote(quote: string): string {
  return quote.replace(EDGE_WHITESPACE, "").replace(WHITESPACE_RUNS, " ");
}

/** The code point next to UTF-16 index `at` going `step` (-1 back, +1 forward), past format characters. */
function visibleNeighbour(text: string, at: number, step: -1 | 1): string | undefined {
  let i = step < 0 ? at - 1 : at;
  while (i >= 0 && i < text.length) {
    const cp = text.codePointAt(i)!;
    // Stepping back onto a low surrogate: read the pair from its high half.
    const ch = step < 0 && isLowSurrogate(text.charCodeAt(i)) && i > 0 ? String.fromCodePoint(text.codePointAt(i - 1)!) : String.fromCodePoint(cp);
    if (!FORMAT.test(ch)) return ch;
    i += step * ch.length;
  }
  return undefined;
}

/** Whether a match of `needle` at [from, to) of `text` starts and ends on word boundaries. */
function onWordBoundaries(text: string, from: number, to: number, needle: string): boolean {
  const first = String.fromCodePoint(needle.codePointAt(0)!);
  const last = Array.from(needle.slice(-2)).pop()!;
  const before = visibleNeighbour(text, from, -1);
  const after = visibleNeighbour(text, to, 1);
  if (WORD.test(first) && before !== undefined && WORD.test(before)) return false;
  if (WORD.test(last) && after !== undefined && WORD.test(after)) return false;
  // A number goes on past a decimal point or a thousands separator: "30" is not in "30.5" or "1,030".
  const digit = /\p{N}/u;
  if (digit.test(first) && before !== undefined && /[.,]/.test(before)) {
    const prior = visibleNeighbour(text, from - 1, -1);
    if (prior !== undefined && digit.test(prior)) return false;
  }
  if (digit.test(last) && after !== undefined && /[.,]/.test(after)) {
    const next = visibleNeighbour(text, to + 1, 1);
    if (next !== undefined && digit.test(next)) return false;
  }
  return true;
}

const isLowSurrogate = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

/**
 * Every occurrence of `quote` in `text` (overlapping ones included), at most
 * `limit`. An empty quote occurs nowhere.
 *
 * @example
 *   findQuote("kept for\n  30 days", "kept for 30 days") // [{ start: 0, end: 18 }]
 */
export function findQuote(text: string, quote: string, limit = 100): QuoteSpan[] {
  const needle = normaliseQuote(quote);
  if (needle === "") return [];
  const hay = normalise(text);
  const cp = new CodePointText(text);
  const spans: QuoteSpan[] = [];
  for (let at = hay.text.indexOf(needle); at >= 0 && spans.length < limit; at = hay.text.indexOf(needle, at + 1)) {
    const from = hay.origin[at]!;
    // The needle ends in a non-space unit, which maps to exactly one original unit.
    const to = hay.origin[at + needle.length - 1]! + 1;
    // A match may not start or end inside a surrogate pair.
    if (isLowSurrogate(text.charCodeAt(from)) || (to < text.length && isLowSurrogate(text.charCodeAt(to)))) continue;
    if (!onWordBoundaries(text, from, to, needle)) continue;
    spans.push({ start: cp.toCodePoint(from), end: cp.toCodePoint(to) });
  }
  return spans;
}
