/**
 * Checking an unquoted claim against the passages it cites, without a model:
 * what can be read off the words must be in (or follow from) those passages.
 *
 * - numbers: every number of the claim occurs in a cited passage, as digits
 *   or as a number word ("three"); with a unit ("30 days", "2 GB"), the same
 *   quantity must be there in some unit of the same dimension ("48 hours" is
 *   "2 days"), and a number that is there only with a unit of another
 *   dimension is a unit mismatch;
 * - dates: ISO dates, years, month and weekday names occur in a cited passage;
 * - negation: when a passage sentence says nearly what the claim says, both
 *   say it with a negation or both without ("are not encrypted" is not "are
 *   encrypted");
 * - named entities: capitalised names inside the sentence, acronyms,
 *   CamelCase, identifiers with digits, dots or underscores occur in a cited
 *   passage (or its heading).
 *
 * A claim that passes is not proven true (paraphrase is not checked); one that
 * fails says something the passages do not, and names it.
 */
import { findQuotes } from "./answer-text.js";

/** What in a claim is not in the passages it cites. */
export interface ClaimMismatch {
  kind: "number" | "unit" | "date" | "negation" | "entity";
  /** The words of the claim that do not match. */
  claim: string;
  detail: string;
}

const NUMBER_WORDS: Record<string, number> = {
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11,
  twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17, eighteen: 18, nineteen: 19,
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90, hundred: 100,
  thousand: 1000, million: 1_000_000, billion: 1_000_000_000, dozen: 12, single: 1, once: 1, twice: 2, double: 2, half: 0.5,
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5,
};
/**
 * Number words a claim is checked for: not "one" or ordinals (too often no number: "one of", "the second"),
 * nor multipliers ("hundred"), which compose with the words before them.
 */
const CLAIM_NUMBER_WORDS = new Set([
  "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "twenty", "thirty",
  "forty", "fifty", "sixty", "seventy", "eighty", "ninety", "dozen",
]);

/** Units by dimension, with their size in the dimension's base unit. */
const UNITS: Record<string, { dim: string; base: number }> = {};
function unit(dim: string, base: number, ...names: string[]): void {
  for (const n of names) UNITS[n] = { dim, base };
}
unit("time", 0.001, "ms", "millisecond", "milliseconds", "msec");
unit("time", 1, "s", "sec", "secs", "second", "seconds");
unit("time", 60, "min", "mins", "minute", "minutes");
unit("time", 3600, "h", "hr", "hrs", "hour", "hours");
unit("time", 86400, "d", "day", "days");
unit("time", 604800, "wk", "week", "weeks");
unit("time", 2_592_000, "month", "months");
unit("time", 31_536_000, "yr", "yrs", "year", "years");
unit("size", 1, "byte", "bytes");
unit("size", 1e3, "kb", "kib", "kilobyte", "kilobytes");
unit("size", 1e6, "mb", "mib", "megabyte", "megabytes");
unit("size", 1e9, "gb", "gib", "gigabyte", "gigabytes");
unit("size", 1e12, "tb", "tib", "terabyte", "terabytes");
unit("size", 1e15, "pb", "pib", "petabyte", "petabytes");
unit("ratio", 1, "%", "percent", "per cent");
unit("rate", 1, "hz");
unit("rate", 1e3, "khz");
unit("rate", 1e6, "mhz");
unit("rate", 1e9, "ghz");

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"];

const NEGATION = /\b(?:not|no|never|none|nothing|nobody|nowhere|neither|nor|cannot|without|unless)\b|n[’']t\b/i;

const STOPWORDS = new Set(
  "the a an and or but if then than that this these those is are was were be been being it its of to in on at by for with from as into onto over under about after before between through during per via can could may might must shall should will would do does did has have had not no never only also just very more most less least such which who whom whose what when where why how all any each every some both either other another own same so too up down out off again further once here there their they them we our you your he she his her i me my".split(" "),
);

interface Quantity {
  /** The digits or word as written. */
  raw: string;
  value: number;
  /** The unit as written, lower-cased, when one follows. */
  unit?: string | undefined;
}

/** The number a token of digits stands for ("1,000" → 1000, "2.5" → 2.5); NaN for a time or a version. */
function valueOf(raw: string): number {
  if (/^\d{1,3}(?:,\d{3})+(?:\.\d+)?$/.test(raw)) return Number(raw.replace(/,/g, ""));
  if (/^\d+(?:\.\d+)?$/.test(raw)) return Number(raw);
  return Number.NaN;
}

const QUANTITY = /(?<![\p{L}\p{N}_.,:-])(\d+(?:[.,:]\d+)*)(?:st|nd|rd|th)?(?:[ \t\u00a0-]?(%|per cent|percent|[A-Za-zµ]{1,12}))?(?![\p{L}\p{N}_]|[.,:]\d)/gu;
const NUMBER_WORD = /\b([A-Za-z]+)\b(?=(?:[ \t-]([A-Za-z]{1,12})\b)?)/g;

/** Quantities in a text: digits (with the unit that follows, if it is one) and number words. */
function quantities(text: string, words: "all" | "claim"): Quantity[] {
  const out: Quantity[] = [];
  for (const m of text.matchAll(QUANTITY)) {
    const raw = m[1]!;
    const u = m[2]?.toLowerCase();
    out.push({ raw, value: valueOf(raw), unit: u !== undefined && UNITS[u] ? u : undefined });
  }
  for (const m of text.matchAll(NUMBER_WORD)) {
    const w = m[1]!.toLowerCase();
    if (!(w in NUMBER_WORDS) || (words === "claim" && !CLAIM_NUMBER_WORDS.has(w))) continue;
    const u = m[2]?.toLowerCase();
    out.push({ raw: m[1]!, value: NUMBER_WORDS[w]!, unit: u !== undefined && UNITS[u] ? u : undefined });
  }
  return out;
}

const sameValue = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

function checkQuantity(q: Quantity, evidence: Quantity[], evidenceText: string): ClaimMismatch | undefined {
  const written = q.unit ? `${q.raw} ${q.unit}` : q.raw;
  if (Number.isNaN(q.value)) {
    // A time of day, a version, a port: it must occur as written.
    return new RegExp(`(?<![\\p{N}.:])${escape(q.raw)}(?![\\p{N}]|[.:]\\p{N})`, "u").test(evidenceText)
      ? undefined
      : { kind: "number", claim: q.raw, detail: `says ${q.raw}, which the passages it cites do not.` };
  }
  const same = evidence.filter((e) => sameValue(e.value, q.value));
  if (!q.unit) {
    return same.length > 0 ? undefined : { kind: isYear(q) ? "date" : "number", claim: q.raw, detail: `says ${q.raw}, which the passages it cites do not.` };
  }
  const u = UNITS[q.unit]!;
  const amount = q.value * u.base;
  // The same quantity in any unit of its dimension follows from the passage ("48 hours" is "2 days").
  if (evidence.some((e) => e.unit && UNITS[e.unit]!.dim === u.dim && sameValue(e.value * UNITS[e.unit]!.base, amount))) return undefined;
  if (same.some((e) => e.unit)) {
    const theirs = [...new Set(same.flatMap((e) => (e.unit ? [e.unit] : [])))].join(", ");
    return { kind: "unit", claim: written, detail: `says ${written}, where the passages it cites have ${q.raw} ${theirs}.` };
  }
  return { kind: "number", claim: written, detail: `says ${written}, which the passages it cites do not.` };
}

const isYear = (q: Quantity): boolean => /^(?:19|20)\d{2}$/.test(q.raw);
const escape = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const wordIn = (word: string, text: string): boolean => new RegExp(`(?<![\\p{L}\\p{N}_])${escape(word)}(?![\\p{L}\\p{N}_])`, "iu").test(text);

/** Candidate names of a claim: capitalised words past its first, acronyms, CamelCase, identifiers. */
function entities(claim: string): string[] {
  const out: string[] = [];
  const tokens = [...claim.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_.+#]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu)];
  for (const [k, m] of tokens.entries()) {
    const t = m[0].replace(/[’']s$/, "");
    const before = claim.slice(0, m.index).trimEnd();
    // The first word of a sentence, a clause after a colon, or a list item is capitalised for grammar.
    const grammatical = k === 0 || /[:.!?;•\-–—(]$/.test(before) || before === "";
    // Quantities ("4GB", "30d", "1st") are the number check's; abbreviations ("e.g", "i.e") are no names.
    if (/^\d+(?:[.,]\d+)?\p{L}{1,12}$/u.test(t) || /^(?:\p{L}\.)+\p{L}?$/u.test(t)) continue;
    const identifier = /[a-z][A-Z]|[A-Z]{2,}|\p{L}\d|\d\p{L}|[._]\p{L}/u.test(t);
    const capitalised = /^\p{Lu}\p{Ll}/u.test(t) && !grammatical && t !== "I";
    const calendar = /^\p{Lu}/u.test(t) && (MONTHS.includes(t.toLowerCase()) || WEEKDAYS.includes(t.toLowerCase()));
    if (identifier || capitalised || calendar) out.push(t);
  }
  return out;
}

function entityFound(name: string, evidence: string): boolean {
  if (wordIn(name, evidence)) return true;
  // Plurals and possessives of a name: "APIs", "Redis'".
  const stem = name.replace(/(?:es|s|[’'])$/, "");
  if (stem !== name && stem.length >= 2 && wordIn(stem, evidence)) return true;
  return false;
}

/** Content words, lightly stemmed, for finding the passage sentence a claim restates. */
function contentWords(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(/\p{L}[\p{L}'’]*/gu)) {
    const w = m[0].replace(/[’']s?$/, "");
    if (w.length < 3 || STOPWORDS.has(w) || NEGATION.test(w)) continue;
    out.add(w.replace(/(?:ing|ed|es|s)$/, "").slice(0, 8));
  }
  return out;
}

/** `text` with its quoted spans blanked. */
function withoutQuotes(text: string): string {
  let out = text;
  for (const q of findQuotes(text)) out = out.slice(0, q.start) + " ".repeat(q.end - q.start) + out.slice(q.end);
  return out;
}

/** Sentences of a passage: a line break inside a paragraph does not end one, a blank line or a list item does. */
function sentencesOf(text: string): string[] {
  return text
    .replace(/\n(?![^\S\n]*(?:\n|[-*+>#|]|\d+[.)]\s))/g, " ")
    .split(/(?<=[.!?])\s+|\n+/)
    .filter((s) => s.trim() !== "");
}

/**
 * The passage sentence that shares most content words with the claim, when it
 * shares most of them, with the sentences either side of it (the claim's
 * numbers must be there: a restated sentence takes its figures from its own place).
 */
function restated(claim: string, evidence: readonly string[]): { sentence: string; around: string } | undefined {
  const mine = contentWords(claim);
  if (mine.size < 2) return undefined;
  let best: { sentence: string; around: string; share: number; fit: number } | undefined;
  for (const text of evidence) {
    const all = sentencesOf(text);
    for (const [i, s] of all.entries()) {
      const theirs = contentWords(s);
      let shared = 0;
      for (const w of mine) if (theirs.has(w)) shared++;
      const share = shared / mine.size;
      // Ties go to the sentence with fewer words the claim does not have.
      const fit = theirs.size === 0 ? 0 : shared / theirs.size;
      if (!best || share > best.share || (share === best.share && fit > best.fit)) {
        best = { sentence: s, around: all.slice(Math.max(0, i - 1), i + 2).join(" "), share, fit };
      }
    }
  }
  return best && best.share >= 0.6 ? best : undefined;
}

/**
 * What `claim` (a sentence with its quotes and citation markers taken out) says
 * that `evidence` (the texts of the passages it cites, headings included) does not.
 *
 * @example
 *   checkClaim("Backups are kept for 999 days.", ["Backups are kept for 30 days."])
 *   // [{ kind: "number", claim: "999 days", detail: "says 999 days, which the passages it cites do not." }]
 */
export function checkClaim(claim: string, evidence: readonly string[]): ClaimMismatch[] {
  const joined = evidence.join("\n");
  const mismatches: ClaimMismatch[] = [];
  const match = restated(claim, evidence);
  // A claim that restates one passage sentence takes its figures from there; another claim from anywhere cited.
  const figures = match?.around ?? joined;
  const known = quantities(figures, "all");
  const seen = new Set<string>();
  for (const q of quantities(claim, "claim")) {
    const m = checkQuantity(q, known, figures);
    if (m && !seen.has(m.claim)) {
      seen.add(m.claim);
      mismatches.push(m);
    }
  }
  for (const m of claim.matchAll(/\b\d{4}-\d{2}-\d{2}\b/g)) {
    if (!joined.includes(m[0]) && !seen.has(m[0])) mismatches.push({ kind: "date", claim: m[0], detail: `says ${m[0]}, a date the passages it cites do not have.` });
  }
  for (const name of new Set(entities(claim))) {
    if (entityFound(name, joined)) continue;
    const lower = name.toLowerCase();
    const kind = MONTHS.includes(lower) || WEEKDAYS.includes(lower) ? "date" : "entity";
    mismatches.push({ kind, claim: name, detail: `names ${name}, which the passages it cites do not mention.` });
  }
  if (match !== undefined) {
    const mine = NEGATION.exec(claim)?.[0];
    // Quoted words in the passage (`language = "none"`) are mentioned, not asserted, as the claim's own quotes are.
    const theirs = NEGATION.exec(withoutQuotes(match.sentence))?.[0];
    if ((mine === undefined) !== (theirs === undefined)) {
      mismatches.push(
        mine !== undefined
          ? { kind: "negation", claim: mine, detail: `says "${mine}", where the passage sentence it restates has no negation: ${JSON.stringify(match.sentence.trim().slice(0, 160))}.` }
          : { kind: "negation", claim: claim.trim().slice(0, 80), detail: `has no negation, where the passage sentence it restates says "${theirs}": ${JSON.stringify(match.sentence.trim().slice(0, 160))}.` },
      );
    }
  }
  return mismatches;
}
