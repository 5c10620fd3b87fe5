/**
 * Finding a quote in a text verbatim, after whitespace normalisation only:
 * any run of whitespace (spaces, tabs, line breaks, no-break spaces) in either
 * counts as one space, and the quote's leading and trailing whitespace is
 * ignored. Nothing else is forgiven: case, punctuation, quote marks, hyphens
 * and ellipses must match exactly, so a found quote is the source's wording.
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

const WHITESPACE = /\s/;

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
  return quote.trim().replace(/\s+/g, " ");
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
    spans.push({ start: cp.toCodePoint(from), end: cp.toCodePoint(to) });
  }
  return spans;
}
