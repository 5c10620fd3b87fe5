/**
 * The grounding report, computed by us from the answer's text and the
 * passages, never taken from the model: for each sentence, the passages it
 * cites (unsupported without a valid one); for each quote, whether it occurs
 * verbatim (whitespace aside) in a passage the sentence cites, and if so a
 * citation of its own with exact code-point offsets into the source; for each
 * cited passage, a fresh verification against the source; and a verdict.
 */
import type { Citation, SearchHit, Verification } from "../core/contracts.js";
import type { CodePointText } from "../core/text.js";
import type { SourceLineMap } from "../core/source-lines.js";
import { spanCitationInContent, spanCitationInPassage } from "../cite/span-citation.js";
import { claimText, parseAnswer, type UnclosedQuote } from "./answer-text.js";
import { checkClaim, type ClaimMismatch } from "./claim-check.js";
import { ABSTAIN_REPLY } from "./prompt.js";
import { findQuote } from "./quote-match.js";

export const GROUNDING_VERDICTS = ["grounded", "partially grounded", "ungrounded", "abstained"] as const;
export type GroundingVerdict = (typeof GROUNDING_VERDICTS)[number];

export type { ClaimMismatch } from "./claim-check.js";

/** Why a sentence is or is not supported. */
export type SentenceStatus = "supported" | "unsupported" | "quote_not_found" | "source_changed";

export interface SentenceReport {
  /** 1-based position in the answer. */
  index: number;
  text: string;
  /** Valid passage numbers it cites. */
  citations: number[];
  /** Cited numbers that name no passage sent to the model. */
  invalid_citations: number[];
  /** Positions (in `quotes`) of the quotes it contains. */
  quotes: number[];
  /** What its own words (outside quotes) say that the passages it cites do not: numbers, units, dates, negation, names. */
  mismatches: ClaimMismatch[];
  status: SentenceStatus;
  detail: string;
}

export interface QuoteReport {
  /** 1-based position in the answer. */
  index: number;
  sentence: number;
  text: string;
  /** Verbatim (after whitespace normalisation) in a passage the sentence cites. */
  found: boolean;
  /** The cited passage it was found in. */
  passage: number | null;
  /** The quote's own citation: exact code points of the source, verifiable later. */
  citation: Citation | null;
  /** That citation re-checked against the source now. */
  verification: Verification | null;
  /** Passages that contain it although the sentence does not cite them. */
  found_in_uncited: number[];
  detail: string;
}

/** A passage sent to the model, as the report shows it. */
export interface PassageReport {
  /** The number the prompt gave it. */
  n: number;
  chunk_id: string;
  document_id: string;
  score: number;
  heading_path: string[];
  text: string;
  citation: Citation;
  /** Cited by at least one sentence. */
  cited: boolean;
  /** Re-verified against its source (cited passages only; null otherwise). */
  verification: Verification | null;
}

export interface GroundingCounts {
  sentences: number;
  supported: number;
  unsupported: number;
  quotes: number;
  quotes_found: number;
  quotes_not_found: number;
  invalid_citations: number;
  cited_passages: number;
  passages_verified: number;
  passages_drifted: number;
  passages_unresolvable: number;
}

export interface GroundingReport {
  verdict: GroundingVerdict;
  /** One line saying why. */
  reason: string;
  counts: GroundingCounts;
  sentences: SentenceReport[];
  quotes: QuoteReport[];
  passages: PassageReport[];
}

/** A passage's re-check: its verdict and, when the source could be read, its current text. */
export interface PassageCheck {
  verification: Verification;
  content?: CodePointText | undefined;
  pageStarts?: readonly number[] | undefined;
  sourceLines?: SourceLineMap | undefined;
}

/** How grounding re-reads sources (the collection's verification, injected). */
export interface GroundingChecks {
  checkPassage(hit: SearchHit): Promise<PassageCheck>;
  verifyCitation(citation: Citation): Promise<Verification>;
}

function emptyCounts(): GroundingCounts {
  return {
    sentences: 0,
    supported: 0,
    unsupported: 0,
    quotes: 0,
    quotes_found: 0,
    quotes_not_found: 0,
    invalid_citations: 0,
    cited_passages: 0,
    passages_verified: 0,
    passages_drifted: 0,
    passages_unresolvable: 0,
  };
}

function passageReport(hit: SearchHit, n: number): PassageReport {
  return {
    n,
    chunk_id: hit.chunk_id,
    document_id: hit.document_id,
    score: hit.score,
    heading_path: hit.heading_path,
    text: hit.text,
    citation: hit.citation,
    cited: false,
    verification: null,
  };
}

/** The report of an answer that was never written (no passages) or that the model declined. */
export function abstainedReport(reason: string, hits: readonly SearchHit[] = []): GroundingReport {
  return { verdict: "abstained", reason, counts: emptyCounts(), sentences: [], quotes: [], passages: hits.map((h, i) => passageReport(h, i + 1)) };
}

/** Whether the model declined to answer as the prompt told it to. */
export function isAbstention(answer: string): boolean {
  const t = answer.trim().replace(/^["'`*_]+|["'`*_.]+$/g, "");
  return t === ABSTAIN_REPLY;
}

/**
 * Ground an answer in the passages it was written from (`hits[i]` is passage `i + 1`).
 *
 * @example
 *   const report = await groundAnswer('Backups are kept "30 days" [1].', hits, checks);
 *   report.verdict; // "grounded" when the quote is in passage 1 and passage 1 still verifies
 */
export async function groundAnswer(answer: string, hits: readonly SearchHit[], checks: GroundingChecks): Promise<GroundingReport> {
  if (isAbstention(answer)) {
    return abstainedReport("the model said the passages do not answer the question.", hits);
  }
  const passages = hits.map((h, i) => passageReport(h, i + 1));
  const parsed = parseAnswer(answer);
  const counts = emptyCounts();
  const valid = (n: number): boolean => Number.isInteger(n) && n >= 1 && n <= hits.length;

  // Re-verify every cited passage once.
  const cited = new Set<number>();
  for (const s of parsed) for (const n of s.citations) if (valid(n)) cited.add(n);
  const passageChecks = new Map<number, PassageCheck>();
  for (const n of [...cited].sort((a, b) => a - b)) {
    const check = await checks.checkPassage(hits[n - 1]!);
    passageChecks.set(n, check);
    const p = passages[n - 1]!;
    p.cited = true;
    p.verification = check.verification;
    counts.cited_passages++;
    if (check.verification.verdict === "verified") counts.passages_verified++;
    else if (check.verification.verdict === "drifted") counts.passages_drifted++;
    else counts.passages_unresolvable++;
  }

  const sentences: SentenceReport[] = [];
  const quotes: QuoteReport[] = [];
  for (const [i, s] of parsed.entries()) {
    const citations = s.citations.filter(valid);
    const invalid = s.citations.filter((n) => !valid(n));
    counts.invalid_citations += invalid.length;
    const own: number[] = [];
    for (const q of s.quotes) {
      const report = await groundQuote(q.text, quotes.length + 1, i + 1, citations, hits, passageChecks, checks);
      quotes.push(report);
      own.push(report.index);
      if (report.found) counts.quotes_found++;
      else counts.quotes_not_found++;
    }
    counts.quotes += s.quotes.length;
    const mismatches = citations.length > 0 ? checkClaim(claimText(s), citations.map((n) => evidenceOf(hits[n - 1]!))) : [];
    const { status, detail } = sentenceStatus(citations, invalid, own.map((k) => quotes[k - 1]!), passages, s.unclosed, mismatches);
    if (status === "supported") counts.supported++;
    else counts.unsupported++;
    sentences.push({ index: i + 1, text: s.text, citations, invalid_citations: invalid, quotes: own, mismatches, status, detail });
  }
  counts.sentences = sentences.length;
  const { verdict, reason } = verdictOf(counts);
  return { verdict, reason, counts, sentences, quotes, passages };
}

/** What a claim may be checked against: the passage as the model saw it, with its heading and file name. */
function evidenceOf(hit: SearchHit): string {
  const name = hit.citation.source.split(/[\\/]/).filter(Boolean).pop() ?? "";
  return `${name}\n${hit.heading_path.join("\n")}\n${hit.text}`;
}

function sentenceStatus(
  citations: number[],
  invalid: number[],
  quotes: QuoteReport[],
  passages: PassageReport[],
  unclosed: readonly UnclosedQuote[],
  mismatches: readonly ClaimMismatch[],
): { status: SentenceStatus; detail: string } {
  if (invalid.length > 0) {
    return { status: "unsupported", detail: `cites ${invalid.map((n) => `[${n}]`).join(" ")}, which names no passage that was retrieved.` };
  }
  if (citations.length === 0) return { status: "unsupported", detail: "cites no passage." };
  if (unclosed.length > 0) {
    const marks = unclosed.map((u) => u.mark).join(" ");
    return { status: "quote_not_found", detail: `a quotation mark (${marks}) is never closed, so its quote cannot be checked.` };
  }
  const missing = quotes.filter((q) => !q.found);
  if (missing.length > 0) {
    return { status: "quote_not_found", detail: `${missing.length} of its quotes ${missing.length === 1 ? "is" : "are"} not in the passages it cites.` };
  }
  if (mismatches.length > 0) {
    return { status: "unsupported", detail: `its own words go beyond the passages it cites: ${mismatches.map((m) => `${m.kind}: ${m.detail}`).join(" ")}` };
  }
  const changed = citations.filter((n) => passages[n - 1]!.verification?.verdict !== "verified");
  const badQuotes = quotes.filter((q) => q.verification?.verdict !== "verified");
  if (changed.length > 0) {
    return { status: "source_changed", detail: `passage ${changed.map((n) => `[${n}]`).join(" ")} no longer verifies against its source.` };
  }
  if (badQuotes.length > 0) return { status: "source_changed", detail: "a quote's citation no longer verifies against its source." };
  return { status: "supported", detail: `cites ${citations.map((n) => `[${n}]`).join(" ")}, which verif${citations.length === 1 ? "ies" : "y"}.` };
}

async function groundQuote(
  text: string,
  index: number,
  sentence: number,
  citations: number[],
  hits: readonly SearchHit[],
  passageChecks: Map<number, PassageCheck>,
  checks: GroundingChecks,
): Promise<QuoteReport> {
  for (const n of citations) {
    const hit = hits[n - 1]!;
    const [span] = findQuote(hit.text, text, 1);
    if (!span) continue;
    const check = passageChecks.get(n);
    const citation =
      check?.verification.verdict === "verified" && check.content
        ? spanCitationInContent(
            hit.citation,
            hit.chunk_id,
            check.content,
            check,
            hit.citation.start_offset + span.start,
            hit.citation.start_offset + span.end,
            hit.citation,
          )
        : spanCitationInPassage(hit.citation, hit.text, span.start, span.end);
    const verification = await checks.verifyCitation(citation);
    return {
      index,
      sentence,
      text,
      found: true,
      passage: n,
      citation,
      verification,
      found_in_uncited: [],
      detail: `found in passage [${n}] at code points ${citation.start_offset}-${citation.end_offset} of its source; ${verification.verdict}.`,
    };
  }
  const elsewhere = hits.flatMap((h, i) => (!citations.includes(i + 1) && findQuote(h.text, text, 1).length > 0 ? [i + 1] : []));
  const detail =
    elsewhere.length > 0
      ? `not in the passages the sentence cites; it occurs in uncited passage ${elsewhere.map((n) => `[${n}]`).join(" ")}.`
      : citations.length === 0
        ? "the sentence cites no passage to find it in."
        : "not found verbatim in the passages the sentence cites.";
  return { index, sentence, text, found: false, passage: null, citation: null, verification: null, found_in_uncited: elsewhere, detail };
}

function verdictOf(c: GroundingCounts): { verdict: GroundingVerdict; reason: string } {
  if (c.sentences === 0) return { verdict: "ungrounded", reason: "the answer has no sentences." };
  const summary = `${c.supported} of ${c.sentences} sentences supported, ${c.quotes_found} of ${c.quotes} quotes found, ${c.passages_verified} of ${c.cited_passages} cited passages verified`;
  if (c.supported === c.sentences) return { verdict: "grounded", reason: `${summary}.` };
  if (c.supported === 0) return { verdict: "ungrounded", reason: `${summary}.` };
  return { verdict: "partially grounded", reason: `${summary}.` };
}
