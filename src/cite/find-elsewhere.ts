/**
 * Verify across files: when a citation's text is not where it claims (its
 * document moved, was removed, or no longer holds the text), look for the
 * exact cited text among the documents the collection indexed, through the
 * index, never in the cited document itself (already checked): documents
 * with a chunk whose text hash is the citation's, then the best
 * lexical matches for the cited text's terms. Only indexed documents are read
 * (each through containment under its own base dir, like any verification),
 * and only an exact occurrence of the cited text counts: text that merely
 * resembles it is never a relocation. Which of several places the citation
 * became, if any, is choose-place.ts's rule.
 */
import { analyzeQuery } from "../analysis/analyzer.js";
import type { Citation, Verification } from "../core/contracts.js";
import { CodePointText, codePointLength, sha256 } from "../core/text.js";
import type { Store, StoredDocument } from "../store/store.js";
import { occurrencesOf } from "./choose-place.js";
import type { SourceText } from "./source-text.js";

/** Where an exact copy of the cited text was found in another indexed document. */
export interface FoundElsewhere {
  doc: StoredDocument;
  /** Where the text starts in `content` (code points). */
  at: number;
  source: SourceText;
  content: CodePointText;
  relocated: NonNullable<Verification["relocated"]> & { document_id: string; source: string; start_line: number; end_line: number };
}

/** What the search needs from the collection. */
export interface ElsewhereLookup {
  store: Pick<Store, "getDocument" | "chunksWithTextHash" | "searchLexical">;
  /**
   * An indexed document's current text (containment under its base dir, the
   * recorded extractor, the stored snapshot): the same read verification does.
   */
  read(doc: StoredDocument): Promise<{ source: SourceText; content: CodePointText }>;
}

/** Documents read at most per citation: a bound on the work one failed verification can cause. */
export const MAX_DOCUMENTS_READ = 12;
/** Chunks asked of each index lookup. */
const CHUNKS_ASKED = 24;
/** Terms of the cited text used for the lexical lookup (the longest: a cheap stand-in for the rarest). */
const LOOKUP_TERMS = 32;

/**
 * The cited text as the index knows it, only ever when it hashes to the
 * citation's hash: the cited chunk itself, or the span of it a quote's
 * citation names (a quote cites the chunk it was found in), or any chunk with
 * that hash.
 */
export async function citedTextFromIndex(citation: Citation, store: Pick<Store, "getChunk" | "chunksWithTextHash">): Promise<string | undefined> {
  const own = await store.getChunk(citation.chunk_id);
  if (own && own.text_hash === citation.text_hash) return own.text;
  if (own && own.start_offset <= citation.start_offset && citation.end_offset <= own.end_offset) {
    const inside = new CodePointText(own.text).slice(citation.start_offset - own.start_offset, citation.end_offset - own.start_offset);
    if (sha256(inside) === citation.text_hash) return inside;
  }
  const [same] = await store.chunksWithTextHash(citation.text_hash, 1);
  return same && sha256(same.text) === citation.text_hash ? same.text : undefined;
}

/**
 * Places looked at per citation (in the cited document and elsewhere
 * together, ADR 0037); a text found this many times is not relocated, since
 * the one it became may be among those not looked at.
 */
export const MAX_PLACES = 64;

/**
 * Where `text` occurs exactly in the candidate documents, in the order above,
 * at most `limit` places. Which of them (if any) the citation
 * became is for choose-place.ts to say. The cited document itself is never
 * read here: it was already checked, its own occurrences are the caller's.
 */
export async function findElsewhere(citation: Citation, text: string, lookup: ElsewhereLookup, limit: number): Promise<FoundElsewhere[]> {
  if (text.length === 0 || limit <= 0) return [];
  let read = 0;
  const tried = new Set<string>([citation.document_id]);
  const places: FoundElsewhere[] = [];
  for await (const doc of candidates(citation, text, lookup)) {
    if (tried.has(doc.document_id)) continue;
    tried.add(doc.document_id);
    if (read++ >= MAX_DOCUMENTS_READ) break;
    let current: Awaited<ReturnType<ElsewhereLookup["read"]>>;
    try {
      current = await lookup.read(doc);
    } catch {
      // A candidate that cannot be read now (gone, refused) holds nothing we can point at.
      continue;
    }
    for (const at of occurrencesOf(current.content, text, limit - places.length)) {
      const end = at + codePointLength(text);
      const lines = current.content.lineRange(at, end);
      const relocated = { start_offset: at, end_offset: end, document_id: doc.document_id, source: doc.source, start_line: lines.startLine, end_line: lines.endLine };
      places.push({ doc, ...current, at, relocated });
    }
    if (places.length >= limit) break;
  }
  return places;
}

/**
 * Candidate documents, best first (duplicates, and the cited document, are
 * skipped by the caller). Each lookup is asked again for more chunks while the
 * caller still wants documents and the last answer was full: the best matches
 * are often chunks of the cited document itself (near copies of the cited text
 * around it) or many chunks of one document, and those must not stand in for
 * the other documents (ADR 0037).
 */
async function* candidates(citation: Citation, text: string, lookup: ElsewhereLookup): AsyncGenerator<StoredDocument> {
  yield* widening((limit) => lookup.store.chunksWithTextHash(citation.text_hash, limit));
  const terms = lookupTerms(text);
  if (terms.length === 0) return;
  yield* widening((limit) => lookup.store.searchLexical(terms, limit));
}

/** Chunks asked of one lookup at most, however many of them are skipped. */
export const MAX_CHUNKS_ASKED = CHUNKS_ASKED * 16;

/** The documents of `ask(limit)`'s chunks, asking with a doubled limit while every chunk asked for came back, up to {@link MAX_CHUNKS_ASKED}. */
async function* widening(ask: (limit: number) => Promise<ReadonlyArray<{ document: StoredDocument }>>): AsyncGenerator<StoredDocument> {
  for (let limit = CHUNKS_ASKED; ; limit *= 2) {
    const chunks = await ask(limit);
    // A wider answer repeats the narrower one (the caller skips what it tried), whatever order ties came back in.
    for (const chunk of chunks) yield chunk.document;
    if (chunks.length < limit || limit >= MAX_CHUNKS_ASKED) return;
  }
}

/** The cited text's distinct terms, longest first (ties in text order), at most {@link LOOKUP_TERMS}. */
function lookupTerms(text: string): string[] {
  const distinct = [...new Set(analyzeQuery(text))];
  return distinct.sort((a, b) => b.length - a.length).slice(0, LOOKUP_TERMS);
}
