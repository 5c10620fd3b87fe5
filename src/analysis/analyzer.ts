/**
 * The BM25 analyzer: one function turns chunk text into the token stream that
 * is indexed, another turns a query into its search terms. Both run
 * the same pipeline, modelled on Lucene's EnglishAnalyzer (what Anserini's
 * published BEIR baselines use), so both sides always see the same terms:
 *
 * 1. lowercase; fold compatibility forms (NFKD: full-width letters,
 *    ligatures) and strip the diacritics of Latin and Greek letters
 *    ("Café" -> "cafe", "ß" -> "ss"), then recompose (NFC) so Hangul syllables
 *    and kana with (han)dakuten stay whole; other scripts keep their marks and
 *    letters (Devanagari vowel signs, Cyrillic "й");
 * 2. split into words of letters, digits, marks and `_`, keeping UAX #29's
 *    joiners inside a word: `'` `’` `.` `·` between letters ("don't",
 *    "u.s.a", "e.g"), `.` `,` `;` `'` between digits ("3.14", "5,000");
 *    unlike UAX #29, `:` splits ("body:engine", "key:value", URLs are words apart);
 * 3. strip a possessive `'s` ("john's" -> "john");
 * 4. drop words longer than {@link MAX_TOKEN_LENGTH} characters and Lucene's
 *    English stopwords ({@link ENGLISH_STOPWORDS});
 * 5. Porter-stem ASCII words (original Porter algorithm, as Lucene's
 *    PorterStemFilter); other scripts pass through unchanged; numbers are kept;
 * 6. CJK runs (Han, Hiragana, Katakana, Hangul) become overlapping character
 *    bigrams, the classic CJK analyzer approach, since these scripts do not
 *    separate words with spaces.
 *
 * Lone CJK characters: a query that is a single CJK character (or has one
 * between non-CJK text) must still match. The index therefore also carries
 * every CJK character as a unigram term, while queries use bigrams for runs of
 * two or more characters and the unigram only for a lone character. The extra
 * unigrams count towards document length (consistently for all documents).
 */
import { stemmer } from "stemmer";

/** Lucene's `EnglishAnalyzer.ENGLISH_STOP_WORDS_SET`, removed at index and query time. */
export const ENGLISH_STOPWORDS: ReadonlySet<string> = new Set([
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it", "no", "not",
  "of", "on", "or", "such", "that", "the", "their", "then", "there", "these", "they", "this", "to", "was",
  "will", "with",
]);

/** Words longer than this many characters (code points) are dropped: hashes, base64, noise. */
export const MAX_TOKEN_LENGTH = 64;

/** Most distinct terms a query contributes; later ones are dropped (they add cost, not precision). */
export const MAX_QUERY_TERMS = 64;

// Any non-ASCII UTF-16 code unit (surrogates included).
const NON_ASCII = /[\u0080-\uffff]/;
// After NFKD, combining diacritics (U+0300-036F) that follow a Latin or Greek letter are folded
// away. Other scripts keep their marks (Devanagari vowel signs, kana voicing marks, ...).
// Explicit ranges rather than \p{Script=...}: several times faster on large inputs.
const LATIN_GREEK_MARKS =
  /([a-z\u00c0-\u024f\u1e00-\u1eff\u2c60-\u2c7f\ua720-\ua7ff\u0370-\u03ff\u1f00-\u1fff])[\u0300-\u036f]+/g;
// Latin letters without a canonical decomposition, folded as Lucene's ASCIIFoldingFilter does.
const SPECIAL_FOLDS = /[ßæœøđłþðς’]/g;
const SPECIAL_FOLD_MAP: Record<string, string> = {
  ß: "ss", æ: "ae", œ: "oe", ø: "o", đ: "d", ł: "l", þ: "th", ð: "d", ς: "σ", "’": "'",
};

// Character classes for the scanner (UAX #29 word-break roles, simplified).
const C_OTHER = 1;
const C_LETTER = 2;
const C_DIGIT = 3;
const C_MARK = 4;
const C_UNDERSCORE = 5; // ExtendNumLet: glues word parts
const C_CJK = 6;
const C_MID_LETTER = 7; // '·' joins letters
const C_MID_NUM_LET = 8; // '.' "'" join letters, and digits
const C_MID_NUM = 9; // ',' ';' join digits

const IS_LETTER = /\p{L}/u;
const IS_DIGIT = /\p{N}/u;
const IS_MARK = /\p{M}/u;
const IS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

function classify(ch: string): number {
  switch (ch) {
    case "_":
      return C_UNDERSCORE;
    case "·":
      return C_MID_LETTER;
    case ".":
    case "'":
      return C_MID_NUM_LET;
    case ",":
    case ";":
      return C_MID_NUM;
  }
  if (IS_CJK.test(ch)) return C_CJK;
  if (IS_LETTER.test(ch)) return C_LETTER;
  if (IS_DIGIT.test(ch)) return C_DIGIT;
  if (IS_MARK.test(ch)) return C_MARK;
  return C_OTHER;
}

/** Classes of ASCII code units, read inline by `scan` (no call per character before V8 optimizes it). */
const ASCII_CLASS = Uint8Array.from({ length: 0x80 }, (_, c) => classify(String.fromCharCode(c)));

/** Classes of BMP code units, filled lazily (0 = not yet classified). */
const bmpClass = new Uint8Array(0x10000);
const astralClass = new Map<number, number>();

function classAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  let k = bmpClass[c]!;
  if (k !== 0) return k;
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) {
      k = astralClass.get(cp) ?? 0;
      if (k === 0) {
        k = classify(String.fromCodePoint(cp));
        astralClass.set(cp, k);
      }
      return k;
    }
  }
  k = classify(text[i]!);
  // Lone surrogates are separators; do not cache a high surrogate's class (it depends on its pair).
  if (c < 0xd800 || c > 0xdbff) bmpClass[c] = k;
  return k;
}

/**
 * Processed form of a (lowercased, folded) word, or "" when it is dropped.
 * Cached (up to 200k words, then cleared): text follows Zipf's law, so almost
 * every word is a cache hit, and the Porter stemmer (a cascade of regular
 * expressions) is the costly step. Throughput: ~30-40 MB/s of English text.
 */
const wordCache = new Map<string, string>();
const WORD_CACHE_LIMIT = 200_000;

function processWord(word: string): string {
  // Code points, not UTF-16 units: count everything but low surrogates.
  if (word.length > MAX_TOKEN_LENGTH) {
    let n = 0;
    for (let i = 0; i < word.length; i++) {
      const c = word.charCodeAt(i);
      if (c < 0xdc00 || c > 0xdfff) n++;
    }
    if (n > MAX_TOKEN_LENGTH) return "";
  }
  let w = word;
  if (w.length > 2 && w.endsWith("'s")) w = w.slice(0, -2);
  if (ENGLISH_STOPWORDS.has(w)) return "";
  if (!NON_ASCII.test(w)) w = stemmer(w);
  return w;
}

function emitWord(word: string, start: number, sink: Sink): void {
  let out = wordCache.get(word);
  if (out === undefined) {
    const key = ownCopy(word);
    out = processWord(key);
    if (wordCache.size >= WORD_CACHE_LIMIT) wordCache.clear();
    wordCache.set(key, out);
  }
  if (out !== "") sink(out, start, start + word.length);
}

/** Below this length V8 copies a slice; from it on, a slice is a view that keeps its whole parent alive. */
const SLICE_VIEW_LENGTH = 13;

/**
 * `word` as a string that does not hold on to the text it was sliced from. A
 * word is a slice of a whole lowercased text, and a long slice is only a view
 * of it, so a cached word (or its unchanged stem) kept every text it was first
 * seen in alive for as long as the cache held it: tens of MB at ingest, and a
 * hit's lowercased text promoted by every young-generation collection while
 * searching. Concatenating makes V8 copy the characters into a new flat
 * string, which the slice then views instead.
 */
function ownCopy(word: string): string {
  return word.length < SLICE_VIEW_LENGTH ? word : (" " + word).slice(1);
}

/** Lowercased non-ASCII text with compatibility forms and Latin/Greek diacritics folded. */
function foldText(lower: string): string {
  return lower
    .normalize("NFKD")
    .replace(LATIN_GREEK_MARKS, "$1")
    .normalize("NFC")
    .replace(SPECIAL_FOLDS, (c) => SPECIAL_FOLD_MAP[c] ?? c)
    .toLowerCase(); // compatibility forms may decompose to capitals (U+210C -> "H")
}

/** Receives each term with the UTF-16 span [start, end) of the analyzed (lowercased, folded) text it came from. */
type Sink = (term: string, start: number, end: number) => void;

/** Emit the terms of one CJK run: bigrams, plus unigrams at index time (or a lone character). */
function emitCjk(run: string, runStart: number, forIndex: boolean, sink: Sink): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    sink(chars[0]!, runStart, runStart + run.length);
    return;
  }
  let at = runStart;
  for (let i = 0; i < chars.length; i++) {
    const w = chars[i]!.length;
    if (forIndex) sink(chars[i]!, at, at + w);
    if (i + 1 < chars.length) sink(chars[i]! + chars[i + 1]!, at, at + w + chars[i + 1]!.length);
    at += w;
  }
}

/** Width in UTF-16 units of the character at i (2 for a surrogate pair). */
function widthAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
    const d = text.charCodeAt(i + 1);
    if (d >= 0xdc00 && d <= 0xdfff) return 2;
  }
  return 1;
}

// Where identifier case matters: a lowercase letter or digit before an uppercase one, or a capital run before lowercase.
// Marks may sit between the letters (a decomposed "á"): the scan sees each cluster's base letter.
// analyzeWithOffsets gates on the same test, so both see the same parts.
const CASE_CHANGE = /[a-z0-9]\p{M}*[A-Z]|[A-Z]\p{M}*[A-Z]\p{M}*[a-z]/u;
// The same test for ASCII text, which holds no marks: no Unicode tables to consult.
const ASCII_CASE_CHANGE = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;

function analyze(text: string, forIndex: boolean, sink: Sink): void {
  if (!NON_ASCII.test(text)) {
    // ASCII: lowercasing keeps every index, so the original text gives the case.
    scan(text.toLowerCase(), forIndex, sink, undefined, ASCII_CASE_CHANGE.test(text) ? { text } : undefined);
    return;
  }
  if (!CASE_CHANGE.test(text)) {
    scan(foldText(text.toLowerCase()), forIndex, sink);
    return;
  }
  const folded = foldByCluster(text);
  scan(folded.text, forIndex, sink, undefined, { text, at: folded.from });
}

/**
 * Which words can give one of a set of wanted terms, judged by their first
 * two code units without processing them. A word's term keeps the word's
 * first code unit, and its second too unless the term is a single unit: the
 * possessive strip and the Porter stemmer rewrite endings, and the stemmer
 * changes a word's second letter only by its y -> i rule ("eyed" -> "ei",
 * "says" -> "sai" keeps it); checked over every ASCII word of up to 5 letters
 * and millions of suffixed ones (test/matched-passage.test.ts pins the rule).
 */
interface WordStarts {
  /** First two code units (`c0 * 65536 + c1`) of wanted terms, and of the words stemming to them by y -> i. */
  pairs: Set<number>;
  /** First code units of wanted single-unit terms. */
  singles: Set<number>;
}

function wordStartsOf(terms: ReadonlySet<string>): WordStarts {
  const starts: WordStarts = { pairs: new Set(), singles: new Set() };
  for (const t of terms) {
    const c0 = t.charCodeAt(0);
    if (t.length < 2) {
      starts.singles.add(c0);
      continue;
    }
    const c1 = t.charCodeAt(1);
    starts.pairs.add(c0 * 65536 + c1);
    if (c1 === 0x69 /* i */) starts.pairs.add(c0 * 65536 + 0x79 /* y */);
  }
  return starts;
}

// A search marks one query's terms in each of its hits: their WordStarts are computed once per set.
const startsBySet = new WeakMap<ReadonlySet<string>, WordStarts>();

function startsOf(terms: ReadonlySet<string>): WordStarts {
  let starts = startsBySet.get(terms);
  if (starts === undefined) startsBySet.set(terms, (starts = wordStartsOf(terms)));
  return starts;
}

/** Whether the word s[start, end) may give a wanted term (see {@link WordStarts}). */
function mayGive(s: string, start: number, end: number, starts: WordStarts): boolean {
  const c0 = s.charCodeAt(start);
  return starts.singles.has(c0) || (end - start >= 2 && starts.pairs.has(c0 * 65536 + s.charCodeAt(start + 1)));
}

/**
 * The word scanner over already lowercased and folded text. With `starts`,
 * words that cannot give a wanted term ({@link WordStarts}) are skipped
 * unprocessed, which saves the per-word slice and lookup.
 */
function scan(s: string, forIndex: boolean, sink: Sink, starts?: WordStarts, cases?: CaseSource): void {
  const n = s.length;
  let i = 0;
  while (i < n) {
    let c = s.charCodeAt(i);
    let k = c < 0x80 ? ASCII_CLASS[c]! : classAt(s, i);
    if (k === C_CJK) {
      const start = i;
      do i += widthAt(s, i);
      while (i < n && ((k = classAt(s, i)) === C_CJK || k === C_MARK));
      emitCjk(s.slice(start, i), start, forIndex, sink);
      continue;
    }
    if (k < C_LETTER || k > C_UNDERSCORE) {
      i += 1;
      continue;
    }
    // A word: letters, digits, marks, underscores, and joiners between letters / between digits.
    const start = i;
    let alnum = false;
    // Whether the word holds `_` or a joiner: only then (or when case can split it) may it have identifier parts.
    let glued = false;
    let last = k; // class of the last letter/digit, for the joiner rules
    for (;;) {
      if (k === C_LETTER || k === C_DIGIT) {
        alnum = true;
        last = k;
      } else if (k === C_UNDERSCORE) {
        glued = true;
        last = k;
      }
      i += c < 0xd800 ? 1 : widthAt(s, i);
      if (i >= n) break;
      c = s.charCodeAt(i);
      k = c < 0x80 ? ASCII_CLASS[c]! : classAt(s, i);
      if (k >= C_LETTER && k <= C_UNDERSCORE) continue;
      if (k >= C_MID_LETTER && i + 1 < n) {
        const d = s.charCodeAt(i + 1);
        const next = d < 0x80 ? ASCII_CLASS[d]! : classAt(s, i + 1);
        const joins =
          (last === C_LETTER && next === C_LETTER && k !== C_MID_NUM) ||
          (last === C_DIGIT && next === C_DIGIT && k !== C_MID_LETTER);
        if (joins) {
          glued = true;
          i += 1;
          c = d;
          k = next;
          continue;
        }
      }
      break;
    }
    if (!alnum) continue;
    const parts = glued || cases !== undefined ? identifierParts(s, start, i, cases) : NO_PARTS;
    if (starts === undefined || mayGive(s, start, i, starts)) emitWord(s.slice(start, i), start, sink);
    if (parts.length === 0 || i - start > MAX_TOKEN_LENGTH) continue;
    for (let p = 0; p < parts.length; p += 2) {
      const a = parts[p]!;
      const b = parts[p + 1]!;
      if (b - a >= 2 && hasAlnum(s, a, b) && (starts === undefined || mayGive(s, a, b, starts))) emitWord(s.slice(a, b), a, sink);
    }
  }
}

/**
 * Whether s[a, b) holds a letter or a digit: a part is a term only then, as a
 * whole word is (a part of marks alone, "𝨀" in "𝨀_0", gives nothing when
 * analyzed on its own, so it must not be a term of the word either).
 */
function hasAlnum(s: string, a: number, b: number): boolean {
  for (let k = a; k < b; k += widthAt(s, k)) {
    const c = s.charCodeAt(k);
    const cls = c < 0x80 ? ASCII_CLASS[c]! : classAt(s, k);
    if (cls === C_LETTER || cls === C_DIGIT) return true;
  }
  return false;
}

/**
 * The original (not lowercased) text a scan runs over, to see identifier case:
 * `at[k]` is the index in `text` of the scanned code unit k (absent: the same index).
 */
interface CaseSource {
  text: string;
  at?: readonly number[] | undefined;
}

function upperAt(cases: CaseSource, k: number): boolean {
  const c = cases.text.charCodeAt(cases.at ? cases.at[k]! : k);
  return c >= 0x41 && c <= 0x5a;
}

function lowerOrDigitAt(cases: CaseSource, k: number): boolean {
  const c = cases.text.charCodeAt(cases.at ? cases.at[k]! : k);
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
}

function isAsciiDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

const NO_PARTS: readonly number[] = [];

/**
 * The parts of an identifier-like word s[start, end), as flat [start, end)
 * pairs, or [] when it has none: it splits at `_`, at a `.` between letters
 * (`os.path`), and, when the case of the original text is known, where
 * lowercase (or a digit) meets uppercase (`parseConfig`) and before the last
 * capital of a run followed by lowercase (`HTMLParser` → `HTML`, `Parser`).
 * A word with a single part that is the word itself has none.
 */
function identifierParts(s: string, start: number, end: number, cases: CaseSource | undefined): readonly number[] {
  let parts: number[] | undefined;
  let from = start;
  for (let k = start; k < end; k++) {
    const c = s.charCodeAt(k);
    if (c === 0x5f || (c === 0x2e && !(isAsciiDigit(s.charCodeAt(k - 1)) && isAsciiDigit(s.charCodeAt(k + 1))))) {
      if (k > from) (parts ??= []).push(from, k);
      from = k + 1;
      continue;
    }
    if (cases && k > from && upperAt(cases, k) && (lowerOrDigitAt(cases, k - 1) || (k + 1 < end && upperAt(cases, k - 1) && lowerOrDigitAt(cases, k + 1) && !isAsciiDigit(s.charCodeAt(k + 1))))) {
      (parts ??= []).push(from, k);
      from = k;
    }
  }
  if (parts === undefined) return NO_PARTS;
  if (end > from) parts.push(from, end);
  return parts;
}

/**
 * The token stream indexed for a chunk: every term occurrence, with repeats
 * (term frequency) and in text order; its length is the document length.
 *
 * @example
 *   analyzeForIndex("The runners' running shoes") // ["runner", "run", "shoe"]
 */
export function analyzeForIndex(text: string): string[] {
  const out: string[] = [];
  analyze(text, true, (t) => out.push(t));
  return out;
}

/**
 * The search terms of a query, every occurrence in text order, so a term the
 * query repeats weighs more (query term frequency, as Anserini's bag-of-words
 * query counts it). At most {@link MAX_QUERY_TERMS} distinct terms are kept:
 * the most frequent in the query, ties by first appearance (a long,
 * document-like query keeps what it keeps saying). A query of only stopwords
 * or punctuation gives [].
 *
 * @example
 *   analyzeQuery("What is the running time of running?") // ["what", "run", "time", "run"]
 */
export function analyzeQuery(text: string): string[] {
  const all: string[] = [];
  const counts = new Map<string, number>();
  analyze(text, false, (t) => {
    all.push(t);
    counts.set(t, (counts.get(t) ?? 0) + 1);
  });
  if (counts.size <= MAX_QUERY_TERMS) return all;
  // Map keys iterate in first-appearance order and the sort is stable: ties keep that order.
  const kept = new Set([...counts.keys()].sort((x, y) => counts.get(y)! - counts.get(x)!).slice(0, MAX_QUERY_TERMS));
  return all.filter((t) => kept.has(t));
}

/** One index term and where it sits in the analyzed text: UTF-16 offsets [start, end). */
export interface TermOccurrence {
  term: string;
  start: number;
  end: number;
}

// A base character and what folds or composes with it: combining marks and Hangul vowel/final jamo.
const CLUSTER = /[^]\p{M}*[\u1160-\u11ff\ud7b0-\ud7ff]*\p{M}*/gu;

/**
 * The index terms of a text with where each came from (UTF-16 offsets into
 * `text`), for marking what a query matched. The terms are those of
 * {@link analyzeForIndex}, in the same order: folding runs per character
 * cluster so every folded character maps back to the characters it came from.
 * With `only`, just the occurrences of those terms (what a passage marks),
 * found without processing words that cannot produce one; what a set needs
 * for that is worked out once per set, so a set must not change between calls.
 *
 * @example
 *   analyzeWithOffsets("Running fast") // [{ term: "run", start: 0, end: 7 }, { term: "fast", start: 8, end: 12 }]
 *   analyzeWithOffsets("Running fast", new Set(["fast"])) // [{ term: "fast", start: 8, end: 12 }]
 */
export function analyzeWithOffsets(text: string, only?: ReadonlySet<string>): TermOccurrence[] {
  const out: TermOccurrence[] = [];
  const starts = only ? startsOf(only) : undefined;
  const push = only
    ? (term: string, start: number, end: number) => {
        if (only.has(term)) out.push({ term, start, end });
      }
    : (term: string, start: number, end: number) => void out.push({ term, start, end });
  const ascii = !NON_ASCII.test(text);
  const cases = (ascii ? ASCII_CASE_CHANGE : CASE_CHANGE).test(text);
  if (ascii) {
    // ASCII: lowercasing keeps every offset.
    scan(text.toLowerCase(), true, push, starts, cases ? { text } : undefined);
    return out;
  }
  const { text: folded, from, to } = foldByCluster(text);
  scan(folded, true, (term, start, end) => push(term, from[start]!, to[end - 1]!), starts, cases ? { text, at: from } : undefined);
  return out;
}

/**
 * Lowercase and fold cluster by cluster, remembering for each folded code unit
 * the original cluster it came from ([from, to) in `text`). The folded text is
 * the one `analyze` scans.
 */
function foldByCluster(text: string): { text: string; from: number[]; to: number[] } {
  const pieces: string[] = [];
  const from: number[] = [];
  const to: number[] = [];
  for (const m of text.matchAll(CLUSTER)) {
    const lower = m[0].toLowerCase();
    const folded = NON_ASCII.test(lower) ? foldText(lower) : lower;
    pieces.push(folded);
    for (let k = 0; k < folded.length; k++) {
      from.push(m.index);
      to.push(m.index + m[0].length);
    }
  }
  return { text: pieces.join(""), from, to };
}
