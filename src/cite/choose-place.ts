/**
 * Which of the places a cited text occurs now is the one the citation became
 * (ADR 0037). A text that occurs once now, and occurred once in its document
 * when it was cited, is that place. Otherwise (it occurs at several places now,
 * or it was repeated in its document when cited, so the one place left may be
 * another copy) the place is told by its surroundings: the text just before and
 * after it now, against the text around each copy in the document as it was
 * cited. A place is the cited copy only when its surroundings match that
 * copy's better than any other copy's (else it is another copy, moved or
 * kept); of those, the one that matches clearly best, and matches at all, is
 * chosen. Otherwise none is, because pointing at one copy could be pointing at
 * the wrong one.
 */
import { CodePointText, codePointLength } from "../core/text.js";

/** An occurrence of the cited text now: the content it is in and its code-point offset there. */
export interface Place {
  content: CodePointText;
  at: number;
}

/** The cited document as it was when cited, and where the citation was in it. */
export interface CitedSpanThen {
  content: CodePointText;
  start: number;
  end: number;
}

/** The chosen place, or several without a choice, or none at all. */
export type Choice<P extends Place> = { kind: "chosen"; place: P } | { kind: "ambiguous"; places: P[] } | { kind: "none" };

/**
 * Code points of surroundings compared, at most, on each side of a place: far
 * enough that two copies inside near-identical longer passages (the same code
 * example twice) are still told apart by where those passages differ.
 */
export const CONTEXT_CODE_POINTS = 4096;
/** The fewest matching code points of surroundings (both sides together) a chosen place needs, when the cited span had that many. */
export const MIN_MATCHING_CONTEXT = 24;

/** Occurrences of `needle` in `content` (code-point offsets), at most `max`. */
export function occurrencesOf(content: CodePointText, needle: string, max: number): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  for (let at = content.indexOf(needle); at >= 0 && out.length < max; at = content.indexOf(needle, at + 1)) out.push(at);
  return out;
}

/** Whether the cited text occurred more than once in its document when it was cited. */
export function repeatedWhenCited(then: CitedSpanThen, text: string): boolean {
  return occurrencesOf(then.content, text, 2).length > 1;
}

/** Copies of the cited text in the document as cited that are compared, at most. */
const MAX_COPIES = 16;

/**
 * Choose among `places` (see the file comment). `then` is undefined when the
 * document as cited is not known: then only a single place is chosen.
 */
export function choosePlace<P extends Place>(places: readonly P[], text: string, then: CitedSpanThen | undefined): Choice<P> {
  if (places.length === 0) return { kind: "none" };
  if (then === undefined) return places.length === 1 ? { kind: "chosen", place: places[0]! } : { kind: "ambiguous", places: [...places] };
  const copies = occurrencesOf(then.content, text, MAX_COPIES);
  if (places.length === 1 && copies.length <= 1) return { kind: "chosen", place: places[0]! };
  const length = codePointLength(text);
  const cited = surroundings(then.content, then.start, then.end);
  const others = copies.filter((at) => at !== then.start).map((at) => surroundings(then.content, at, at + length));
  const scored: Array<{ place: P; score: number }> = [];
  for (const place of places) {
    const here = surroundings(place.content, place.at, place.at + length);
    const score = matching(cited, here);
    // A place that looks as much like another copy as like the cited one may be that other copy.
    if (others.every((other) => matching(other, here) < score)) scored.push({ place, score });
  }
  scored.sort((a, b) => b.score - a.score);
  const [best, next] = scored;
  const needed = Math.min(MIN_MATCHING_CONTEXT, cited.before.length + cited.after.length);
  if (best && best.score >= needed && best.score > 0 && (next === undefined || best.score > next.score)) return { kind: "chosen", place: best.place };
  return { kind: "ambiguous", places: [...places] };
}

interface Surroundings {
  before: string;
  after: string;
}

function surroundings(content: CodePointText, start: number, end: number): Surroundings {
  return {
    before: content.slice(Math.max(0, start - CONTEXT_CODE_POINTS), start),
    after: content.slice(end, Math.min(content.length, end + CONTEXT_CODE_POINTS)),
  };
}

/** Code units of the cited surroundings a place shares: the common end of the text before, the common start of the text after. */
function matching(cited: Surroundings, here: Surroundings): number {
  let before = 0;
  while (before < cited.before.length && before < here.before.length && cited.before[cited.before.length - 1 - before] === here.before[here.before.length - 1 - before]) before++;
  let after = 0;
  while (after < cited.after.length && after < here.after.length && cited.after[after] === here.after[after]) after++;
  return before + after;
}
