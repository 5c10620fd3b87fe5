/** Answering from a collection with a chat model, and grounding an answer (its sentences, quotes and citations) in its passages. */
import type { SearchHit } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { citationOf } from "../cite/citation.js";
import type { SourceText } from "../cite/source-text.js";
import { checkQuery } from "../retrieve/query.js";
import type { AnswerReport, AnswerSources } from "../answer/answer.js";
import type { GroundingChecks, GroundingReport } from "../answer/grounding.js";
import { passageContext, type ChunkPiece } from "../answer/passage-context.js";
import type { QuoteCheck, QuoteSources } from "../answer/verify-quote.js";
import type { CollectionCore } from "./core.js";
import { searchOutcome } from "./search.js";
import { checkWithCache } from "./sources.js";
import type { CollectionAnswerOptions } from "./types.js";

/**
 * Answer a question from this collection's passages with the configured chat
 * model, and ground the answer: every sentence's citations, every quote
 * found (or not) in a cited passage with a citation of its own, every cited
 * passage re-verified, and a verdict. Nothing retrieved: no model call.
 *
 * @throws GroundkitError CHAT_NOT_CONFIGURED without a chat model; GENERATION_FAILED when it fails
 */
export async function answer(core: CollectionCore, question: string, opts: CollectionAnswerOptions): Promise<AnswerReport> {
  checkQuery(question);
  const config = opts.chat ?? core.options.chat;
  if (!config) {
    throw new GroundkitError("CHAT_NOT_CONFIGURED", "No chat model is configured, so there is nothing to write an answer with.");
  }
  const [{ createChatProvider }, { answerQuestion }] = await Promise.all([import("../answer/chat-registry.js"), import("../answer/answer.js")]);
  const chat = await createChatProvider(config);
  const baseDir = opts.baseDir;
  const chunksByDocument = new Map<string, Promise<ChunkPiece[]>>();
  const sources: AnswerSources = {
    collection: core.name,
    search: async (query, o) => (await searchOutcome(core, query, { ...o, baseDir })).results,
    passageContext: async (hit) => {
      // One read of a document's chunks per answer, however many of its passages were retrieved.
      let chunks = chunksByDocument.get(hit.document_id);
      if (!chunks) chunksByDocument.set(hit.document_id, (chunks = core.store.chunksOf(hit.document_id)));
      return passageContext(await chunks, hit.text, hit.citation.start_offset, hit.citation.end_offset);
    },
    ...groundingChecks(core, baseDir),
  };
  return answerQuestion(question, chat, config, sources, opts);
}

/**
 * Ground an answer written elsewhere against the passages it was written
 * from (`hits[i]` is passage `[i + 1]`): the same report `answer` gives.
 *
 * @example
 *   const hits = await col.search("how long are backups kept");
 *   const report = await col.ground('Backups are kept "for 30 days" [1].', hits);
 */
export async function ground(core: CollectionCore, answer: string, hits: readonly SearchHit[], opts: { baseDir?: string | undefined }): Promise<GroundingReport> {
  const { groundAnswer } = await import("../answer/grounding.js");
  return groundAnswer(answer, hits, groundingChecks(core, opts.baseDir));
}

/** Passage and quote checks that share one read per source. */
function groundingChecks(core: CollectionCore, baseDir: string | undefined): GroundingChecks {
  const readCache = new Map<string, Promise<SourceText>>();
  return {
    checkPassage: (hit) => checkWithCache(core, hit.citation, hit.text, baseDir, readCache),
    verifyCitation: async (citation) => (await checkWithCache(core, citation, undefined, baseDir, readCache)).verification,
  };
}

/**
 * Whether `quote` occurs verbatim (whitespace aside) in a chunk or in a
 * document's current text, with the citation and verdict of every occurrence.
 *
 * @throws GroundkitError CHUNK_NOT_FOUND / DOCUMENT_NOT_FOUND, INVALID_ARGUMENT for an empty quote or neither id
 */
export async function verifyQuote(
  core: CollectionCore,
  quote: string,
  where: { chunkId?: string | undefined; documentId?: string | undefined },
  opts: { baseDir?: string | undefined },
): Promise<QuoteCheck> {
  const readCache = new Map<string, Promise<SourceText>>();
  const sources: QuoteSources = {
    chunk: async (id) => {
      const chunk = await core.store.getChunk(id);
      return chunk ? { text: chunk.text, citation: citationOf(chunk) } : undefined;
    },
    document: async (id) => {
      const doc = await core.store.getDocument(id);
      return doc ? { document_id: doc.document_id, source: doc.source, source_class: doc.source_class, extractor: doc.extractor } : undefined;
    },
    check: (citation, originalText) => checkWithCache(core, citation, originalText, opts.baseDir, readCache),
    verify: async (citation) => (await checkWithCache(core, citation, undefined, opts.baseDir, readCache)).verification,
  };
  if ((where.chunkId === undefined) === (where.documentId === undefined)) {
    throw new GroundkitError("INVALID_ARGUMENT", "Name exactly one of chunk_id and document_id to look for the quote in.");
  }
  const { verifyQuoteInChunk, verifyQuoteInDocument } = await import("../answer/verify-quote.js");
  return where.chunkId !== undefined
    ? verifyQuoteInChunk(quote, where.chunkId, sources, core.name)
    : verifyQuoteInDocument(quote, where.documentId!, sources, core.name);
}
