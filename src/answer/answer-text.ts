/**
 * Reading a model's answer: its sentences, the passage numbers each cites
 * (`[2]`, `[1, 3]`, `[1][3]`, `[2-4]`) and the spans it quotes, in any
 * quotation marks ("…", “…”, '…', «…», „…“, 「…」, ＂…＂, `…`, mismatched pairs).
 * Sentences end at `.`, `!` or `?` followed by space (citations right after the
 * stop belong to the sentence before), at a line break, or at the end; a stop
 * inside a quote does not end a sentence.
 */

/** A quoted span of the answer. */
export interface AnswerQuote {
  /** The words between the quote marks. */
  text: string;
  /** UTF-16 offsets of the quoted words in the answer. */
  start: number;
  end: number;
}

/** One sentence of the answer. */
export interface AnswerSentence {
  text: string;
  /** UTF-16 offsets in the answer. */
  start: number;
  end: number;
  /** Passage numbers cited, in order of first mention, without repeats. */
  citations: number[];
  quotes: AnswerQuote[];
  /** Quotation marks in it that open a quote never closed: its quote cannot be checked. */
  unclosed: UnclosedQuote[];
}

/** Citation numbers larger than this are not expanded from a range (`[1-99999]`). */
const MAX_RANGE = 50;

const MARKER = /\[(\d{1,4}(?:\s*(?:,|;|-|–)\s*\d{1,4}){0,20})\]/g;

/**
 * Double-weight quotation marks of every script a model writes: straight and
 * curly double quotes, low-9 („ ‟), guillemets (« » ‹ ›), CJK corner brackets
 * (「 」 『 』 ｢ ｣), fullwidth (＂) and prime quotes (〝 〞 〟). Any of them
 * closes a quote any of them opened, so a mismatched pair is still a quote.
 */
const DOUBLE_MARKS = new Set([..."\"“”„‟«»‹›「」『』｢｣＂〝〞〟❝❞"]);
/** Single quotation marks; these double as apostrophes (don't, the users'), so they open and close only at word edges. */
const SINGLE_MARKS = new Set([..."'‘’‚‛＇"]);
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** A quotation mark that opened a quote and was never closed (offset of the mark in the answer). */
export interface UnclosedQuote {
  at: number;
  mark: string;
}

/** Where the blank line after `from` is (a quote may wrap onto the next line, not across a paragraph). */
function paragraphEnd(answer: string, from: number): number {
  const m = /\n[^\S\n]*\n/.exec(answer.slice(from));
  return m ? from + m.index : answer.length;
}

/** A single mark at `i` opens a quote: at the start of a word (not inside one, as in don't). */
function opensSingle(answer: string, i: number): boolean {
  const before = answer[i - 1];
  const after = answer[i + 1];
  return (before === undefined || !LETTER_OR_DIGIT.test(before)) && after !== undefined && !/\s/.test(after);
}

/** A single mark at `i` closes a quote: at the end of a word, not followed by a letter (as in it's). */
function closesSingle(answer: string, i: number): boolean {
  const before = answer[i - 1];
  const after = answer[i + 1];
  return before !== undefined && !/\s/.test(before) && (after === undefined || !LETTER_OR_DIGIT.test(after));
}

/**
 * The quoted spans of an answer, and the marks that opened a quote never closed.
 * Every form a model writes is read: double marks of any script (a mismatched
 * pair too), single quotes at word edges (an apostrophe inside or after a word
 * is not a quote), and backtick code spans and fences. A quote has no length
 * limit: a long quote is checked like a short one.
 */
export function findQuotesAndUnclosed(answer: string): { quotes: AnswerQuote[]; unclosed: UnclosedQuote[] } {
  const quotes: AnswerQuote[] = [];
  const unclosed: UnclosedQuote[] = [];
  const push = (start: number, end: number): void => {
    const inner = answer.slice(start, end);
    if (inner.trim() !== "") quotes.push({ text: inner, start, end });
  };
  for (let i = 0; i < answer.length; i++) {
    const ch = answer[i]!;
    if (ch === "`") {
      let n = 1;
      while (answer[i + n] === "`") n++;
      const fence = "`".repeat(n);
      // A code span closes at the same run of backticks; a fence (```) may cross blank lines.
      const limit = n >= 3 ? answer.length : paragraphEnd(answer, i + n);
      let close = answer.indexOf(fence, i + n);
      while (close >= 0 && answer[close + n] === "`") close = answer.indexOf(fence, close + n + 1);
      if (close < 0 || close >= limit) {
        unclosed.push({ at: i, mark: fence });
        i += n - 1;
        continue;
      }
      let start = i + n;
      // A fence's first line names its language, not source text.
      if (n >= 3) {
        const nl = answer.indexOf("\n", start);
        if (nl >= 0 && nl < close) start = nl + 1;
      }
      push(start, close);
      i = close + n - 1;
      continue;
    }
    if (DOUBLE_MARKS.has(ch)) {
      const limit = paragraphEnd(answer, i + 1);
      let close = -1;
      for (let j = i + 1; j < limit; j++) {
        if (DOUBLE_MARKS.has(answer[j]!)) {
          close = j;
          break;
        }
      }
      if (close < 0) {
        unclosed.push({ at: i, mark: ch });
        continue;
      }
      push(i + 1, close);
      i = close;
      continue;
    }
    if (SINGLE_MARKS.has(ch) && opensSingle(answer, i)) {
      const lineEnd = answer.indexOf("\n", i);
      const limit = lineEnd < 0 ? answer.length : lineEnd;
      let close = -1;
      for (let j = i + 2; j < limit; j++) {
        if (SINGLE_MARKS.has(answer[j]!) && closesSingle(answer, j)) {
          close = j;
          break;
        }
      }
      // An opening mark with no closing one is an apostrophe ('90s, 'tis), not a quote.
      if (close < 0) continue;
      push(i + 1, close);
      i = close;
    }
  }
  return { quotes, unclosed };
}

/** Quoted spans (see {@link findQuotesAndUnclosed}). */
export function findQuotes(answer: string): AnswerQuote[] {
  return findQuotesAndUnclosed(answer).quotes;
}

/** The passage numbers of the markers in `text` (outside the given quote spans), first mention first. */
function citationsIn(text: string, offset: number, quotes: readonly AnswerQuote[]): number[] {
  const out: number[] = [];
  for (const m of text.matchAll(MARKER)) {
    const at = offset + m.index;
    if (quotes.some((q) => at >= q.start && at < q.end)) continue;
    for (const part of m[1]!.split(/\s*[,;]\s*/)) {
      const range = /^(\d+)\s*[-–]\s*(\d+)$/.exec(part);
      const numbers = range ? expand(Number(range[1]), Number(range[2])) : [Number(part)];
      for (const n of numbers) if (!out.includes(n)) out.push(n);
    }
  }
  return out;
}

function expand(from: number, to: number): number[] {
  if (to < from || to - from > MAX_RANGE) return [from, to];
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Offsets where sentences end (exclusive). */
function sentenceEnds(answer: string, quotes: readonly AnswerQuote[]): number[] {
  const ends: number[] = [];
  const inQuote = (i: number): boolean => quotes.some((q) => i >= q.start && i < q.end);
  for (let i = 0; i < answer.length; i++) {
    const ch = answer[i]!;
    if (ch === "\n" && !inQuote(i)) {
      ends.push(i);
      continue;
    }
    if ((ch !== "." && ch !== "!" && ch !== "?") || inQuote(i)) continue;
    // Take closing marks and citation markers that follow the stop.
    let j = i + 1;
    for (;;) {
      while (j < answer.length && (/[)\]]/.test(answer[j]!) || DOUBLE_MARKS.has(answer[j]!) || SINGLE_MARKS.has(answer[j]!) || answer[j] === "`") && !answer.startsWith("[", j)) j++;
      MARKER.lastIndex = 0;
      const rest = answer.slice(j).match(/^\s{0,2}\[(\d{1,4}(?:\s*(?:,|;|-|–)\s*\d{1,4}){0,20})\]/);
      if (!rest) break;
      j += rest[0].length;
    }
    if (j >= answer.length || /\s/.test(answer[j]!)) {
      // An abbreviation ("e.g. this") is not a stop: a bare "." right after a letter, then a lower-case word.
      // A stop after a citation or a closing quote always ends the sentence.
      const next = answer.slice(j).trimStart()[0];
      if (ch === "." && j === i + 1 && i > 0 && /\p{L}/u.test(answer[i - 1]!) && next !== undefined && /[a-z]/.test(next)) continue;
      ends.push(j);
      i = j - 1;
    }
  }
  ends.push(answer.length);
  return ends;
}

/**
 * Split an answer into sentences with their citations and quotes. Pieces with
 * no words (a bare marker, a blank line) are folded into the sentence before.
 *
 * @example
 *   parseAnswer('Backups are kept "for 30 days" [1]. Logs rotate daily [2].')
 *   // two sentences citing [1] and [2]; one quote "for 30 days"
 */
export function parseAnswer(answer: string): AnswerSentence[] {
  const { quotes, unclosed } = findQuotesAndUnclosed(answer);
  const sentences: AnswerSentence[] = [];
  let start = 0;
  for (const end of sentenceEnds(answer, quotes)) {
    if (end <= start) {
      start = Math.max(start, end + 1);
      continue;
    }
    const raw = answer.slice(start, end);
    const lead = raw.length - raw.trimStart().length;
    const text = raw.trim();
    const s = start + lead;
    const e = s + text.length;
    const next = end < answer.length && answer[end] === "\n" ? end + 1 : end;
    start = next;
    if (text === "") continue;
    const own = quotes.filter((q) => q.start >= s && q.end <= e);
    const citations = citationsIn(text, s, own);
    const words = [...text.replace(MARKER, "").replace(/[\s.,;:!?()`-]/g, "")].filter((c) => !DOUBLE_MARKS.has(c) && !SINGLE_MARKS.has(c)).join("");
    const marks = unclosed.filter((u) => u.at >= s && u.at < e);
    const prev = sentences[sentences.length - 1];
    if (words === "" && prev) {
      prev.text = answer.slice(prev.start, e);
      prev.end = e;
      for (const n of citations) if (!prev.citations.includes(n)) prev.citations.push(n);
      prev.unclosed.push(...marks);
      continue;
    }
    if (words === "") continue;
    sentences.push({ text, start: s, end: e, citations, quotes: own, unclosed: marks });
  }
  return sentences;
}

/**
 * What a sentence claims in its own words: its text without its quotes (they
 * are checked verbatim) and without citation markers.
 *
 * @example
 *   claimText(parseAnswer('Backups last "30 days" [1].')[0]!) // 'Backups last "   " .'
 */
export function claimText(sentence: AnswerSentence): string {
  let out = sentence.text;
  // Right to left, so earlier offsets stay valid.
  for (const q of [...sentence.quotes].sort((a, b) => b.start - a.start)) {
    const from = q.start - sentence.start;
    const to = q.end - sentence.start;
    out = out.slice(0, from) + " ".repeat(to - from) + out.slice(to);
  }
  return out.replace(MARKER, " ");
}
