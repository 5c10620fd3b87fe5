/**
 * Reading a model's answer: its sentences, the passage numbers each cites
 * (`[2]`, `[1, 3]`, `[1][3]`, `[2-4]`) and the spans it quotes ("…" or “…”).
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
}

/** Citation numbers larger than this are not expanded from a range (`[1-99999]`). */
const MAX_RANGE = 50;

const MARKER = /\[(\d{1,4}(?:\s*(?:,|;|-|–)\s*\d{1,4}){0,20})\]/g;

/** Quoted spans: straight double quotes pair in order; curly “ ” pair by kind. */
export function findQuotes(answer: string): AnswerQuote[] {
  const quotes: AnswerQuote[] = [];
  // A quote may wrap onto the next line, but not across a blank line (an unpaired mark would swallow a paragraph).
  const pattern = /"((?:[^"\n]|\n(?!\s*\n)){1,2000})"|“((?:[^”\n]|\n(?!\s*\n)){1,2000})”/g;
  for (const m of answer.matchAll(pattern)) {
    const inner = m[1] ?? m[2] ?? "";
    if (inner.trim() === "") continue;
    const start = m.index + 1;
    quotes.push({ text: inner, start, end: start + inner.length });
  }
  return quotes;
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
      while (j < answer.length && /["”’)\]]/.test(answer[j]!) && !answer.startsWith("[", j)) j++;
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
  const quotes = findQuotes(answer);
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
    const words = text.replace(MARKER, "").replace(/[\s.,;:!?"“”()-]/g, "");
    const prev = sentences[sentences.length - 1];
    if (words === "" && prev) {
      prev.text = answer.slice(prev.start, e);
      prev.end = e;
      for (const n of citations) if (!prev.citations.includes(n)) prev.citations.push(n);
      continue;
    }
    if (words === "") continue;
    sentences.push({ text, start: s, end: e, citations, quotes: own });
  }
  return sentences;
}
