/**
 * `verify_quote`: is this exact wording (whitespace aside) in that chunk, or
 * anywhere in that document's current text? Every occurrence comes back as a
 * citation of its own with a fresh verdict, so an agent can check a quote
 * before it relies on it, and cite it exactly once it does.
 */
import type { Citation, Verification } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { chunkIdFor } from "../core/ids.js";
import { spanCitationInContent, spanCitationInPassage, type DocumentFields } from "../cite/span-citation.js";
import { wholeDocumentCitation } from "../cite/read-indexed.js";
import type { PassageCheck } from "./grounding.js";
import { findQuote, normaliseQuote } from "./quote-match.js";

/** Occurrences reported at most (a one-word quote can occur thousands of times). */
export const MAX_QUOTE_OCCURRENCES = 100;
/** Longest quote accepted, in UTF-16 units. */
export const MAX_QUOTE_CHARS = 10_000;

export interface QuoteOccurrence {
  citation: Citation;
  verification: Verification;
}

/** The answer of verify_quote. */
export interface QuoteCheck {
  quote: string;
  /** Where it was looked for. */
  scope: "chunk" | "document";
  chunk_id: string | null;
  document_id: string;
  found: boolean;
  /** Every occurrence (at most 100), each with its citation and verdict. */
  occurrences: QuoteOccurrence[];
  /** More occurrences exist than were reported. */
  truncated: boolean;
  /**
   * `verified` when found and every occurrence verifies; `drifted` when one
   * does not (the chunk's source changed); `unresolvable` when the source could
   * not be read; `not_found` otherwise.
   */
  verdict: "verified" | "drifted" | "unresolvable" | "not_found";
  detail: string;
}

/** How verify_quote reaches the collection (the library face implements it). */
export interface QuoteSources {
  chunk(chunkId: string): Promise<{ text: string; citation: Citation } | undefined>;
  document(documentId: string): Promise<DocumentFields | undefined>;
  /** Re-check a citation, returning the source's current text when it could be read. */
  check(citation: Citation, originalText: string | undefined): Promise<PassageCheck>;
  verify(citation: Citation): Promise<Verification>;
}

function checkQuoteText(quote: string): void {
  if (normaliseQuote(quote) === "") throw new GroundkitError("INVALID_ARGUMENT", "The quote is empty.");
  if (quote.length > MAX_QUOTE_CHARS) {
    throw new GroundkitError("INVALID_ARGUMENT", `The quote is ${quote.length} characters; the limit is ${MAX_QUOTE_CHARS}.`);
  }
}

function verdictOf(found: QuoteOccurrence[], sourceVerdict: Verification | undefined): { verdict: QuoteCheck["verdict"]; detail: string } {
  if (found.length === 0) {
    if (sourceVerdict && sourceVerdict.verdict === "unresolvable") return { verdict: "unresolvable", detail: sourceVerdict.detail };
    return { verdict: "not_found", detail: "the quote does not occur verbatim (whitespace aside)." };
  }
  const bad = found.find((o) => o.verification.verdict !== "verified");
  if (bad) return { verdict: bad.verification.verdict as "drifted" | "unresolvable", detail: `an occurrence does not verify: ${bad.verification.detail}` };
  return { verdict: "verified", detail: `found ${found.length} time${found.length === 1 ? "" : "s"}; every occurrence verifies against the source.` };
}

/**
 * Look for `quote` in a stored chunk's text.
 *
 * @throws GroundkitError CHUNK_NOT_FOUND, INVALID_ARGUMENT for an empty or oversize quote
 */
export async function verifyQuoteInChunk(quote: string, chunkId: string, sources: QuoteSources, collection: string): Promise<QuoteCheck> {
  checkQuoteText(quote);
  const chunk = await sources.chunk(chunkId);
  if (!chunk) throw new GroundkitError("CHUNK_NOT_FOUND", `No chunk ${chunkId} in collection '${collection}'.`);
  const spans = findQuote(chunk.text, quote, MAX_QUOTE_OCCURRENCES + 1);
  const check = spans.length > 0 ? await sources.check(chunk.citation, chunk.text) : undefined;
  const occurrences: QuoteOccurrence[] = [];
  for (const span of spans.slice(0, MAX_QUOTE_OCCURRENCES)) {
    const c = chunk.citation;
    const citation =
      check?.verification.verdict === "verified" && check.content
        ? spanCitationInContent(c, c.chunk_id, check.content, check, c.start_offset + span.start, c.start_offset + span.end, c)
        : spanCitationInPassage(c, chunk.text, span.start, span.end);
    occurrences.push({ citation, verification: await sources.verify(citation) });
  }
  return {
    quote,
    scope: "chunk",
    chunk_id: chunkId,
    document_id: chunk.citation.document_id,
    found: occurrences.length > 0,
    occurrences,
    truncated: spans.length > MAX_QUOTE_OCCURRENCES,
    ...verdictOf(occurrences, check?.verification),
  };
}

/**
 * Look for `quote` in a document's current text (re-read as verification reads it).
 *
 * @throws GroundkitError DOCUMENT_NOT_FOUND, INVALID_ARGUMENT for an empty or oversize quote
 */
export async function verifyQuoteInDocument(quote: string, documentId: string, sources: QuoteSources, collection: string): Promise<QuoteCheck> {
  checkQuoteText(quote);
  const doc = await sources.document(documentId);
  if (!doc) throw new GroundkitError("DOCUMENT_NOT_FOUND", `No document ${documentId} in collection '${collection}'.`);
  // An empty span at the start: checking it reads the source through the usual containment and class rules.
  const probe = wholeDocumentCitation(doc);
  const check = await sources.check(probe, undefined);
  const base = { quote, scope: "document" as const, chunk_id: null, document_id: documentId };
  if (!check.content) {
    return { ...base, found: false, occurrences: [], truncated: false, verdict: "unresolvable", detail: check.verification.detail };
  }
  const content = check.content;
  const spans = findQuote(content.text, quote, MAX_QUOTE_OCCURRENCES + 1);
  const occurrences: QuoteOccurrence[] = [];
  for (const span of spans.slice(0, MAX_QUOTE_OCCURRENCES)) {
    const cited = spanCitationInContent(doc, "", content, check, span.start, span.end);
    // The span's own id, derived like a chunk's, so it is stable across calls.
    const citation = { ...cited, chunk_id: chunkIdFor(doc.source, span.start, span.end, cited.text_hash) };
    occurrences.push({ citation, verification: await sources.verify(citation) });
  }
  return { ...base, found: occurrences.length > 0, occurrences, truncated: spans.length > MAX_QUOTE_OCCURRENCES, ...verdictOf(occurrences, check.verification) };
}
