/** Searching a collection: ranking, hits with citations and passages, verification of the hits, why nothing matched. */
import type { SearchHit } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { citationOf } from "../cite/citation.js";
import type { SourceText } from "../cite/source-text.js";
import { checkCitation } from "../cite/verify.js";
import { ATTR, recordVerdicts, withSpan } from "../obs/tracing.js";
import { DEFAULT_DENSE_MIN_SCORE } from "../retrieve/dense.js";
import { applyMinScore, checkMinScore, explainNoResults } from "../retrieve/no-results.js";
import { bestPassage, queryMarkTerms } from "../retrieve/passage.js";
import { checkQuery, checkTopK, DEFAULT_TOP_K } from "../retrieve/query.js";
import { rankChunks } from "../retrieve/search-pipeline.js";
import type { ScoredChunk } from "../store/store.js";
import { codeLabels, contextAround } from "./chunks.js";
import type { CollectionCore } from "./core.js";
import { verifyContext } from "./sources.js";
import type { RetrievedChunk, SearchOptions, SearchOutcome } from "./types.js";
import { bindEmbedding } from "./vectors.js";

/** A search's hits, also saying why when nothing matched (see retrieve/no-results.ts). */
export async function searchOutcome(core: CollectionCore, query: string, opts: SearchOptions): Promise<SearchOutcome> {
  const attributes = {
    [ATTR.collection]: core.name,
    [ATTR.mode]: opts.mode ?? "bm25",
    [ATTR.topK]: opts.topK ?? DEFAULT_TOP_K,
    [ATTR.rerank]: opts.rerank ?? false,
    [ATTR.verify]: opts.verify ?? false,
    [ATTR.filters]: opts.filters?.length ?? 0,
  };
  return withSpan("groundkit.search", attributes, async (span) => {
    const outcome = await searchOutcomeUntraced(core, query, opts);
    span.setAttribute(ATTR.hits, outcome.results.length);
    return outcome;
  });
}

async function searchOutcomeUntraced(core: CollectionCore, query: string, opts: SearchOptions): Promise<SearchOutcome> {
  checkQuery(query);
  const topK = checkTopK(opts.topK);
  const minScore = checkMinScore(opts.minScore);
  const contextChars = checkContextChars(opts.contextChars);
  const { kept: rows, bestDropped } = applyMinScore(await rank(core, query, topK, opts), minScore);
  const marks = queryMarkTerms(query);
  const hits: SearchHit[] = rows.map((row, i) => ({
    rank: i + 1,
    score: row.score,
    chunk_id: row.chunk_id,
    document_id: row.document.document_id,
    text: row.text,
    heading_path: row.heading_path,
    ...codeLabels(row),
    citation: citationOf(row),
    passage: bestPassage(row.text, marks, row.start_offset, opts.passageChars),
  }));
  if (opts.verify || contextChars > 0) {
    await withSpan("groundkit.search.verify", { [ATTR.hits]: hits.length }, async (span) => {
      // One read (or re-extraction) per source for the whole result list.
      const readCache = new Map<string, Promise<SourceText>>();
      for (const [i, hit] of hits.entries()) {
        const { verification, content } = await checkCitation(hit.citation, {
          ...verifyContext(core, rows[i]!, opts.baseDir),
          readCache,
        });
        hit.verification = verification;
        if (contextChars > 0) hit.context = contextAround(verification, content, hit.citation, contextChars);
      }
      recordVerdicts(span, hits.map((h) => h.verification?.verdict));
    });
  }
  if (hits.length > 0) return { results: hits };
  const mode = opts.mode ?? "bm25";
  const no_results = await explainNoResults(core.store, {
    query,
    mode,
    filtered: (opts.filters?.length ?? 0) > 0,
    minScore,
    bestDropped,
    denseMinScore: core.options.retrieval?.denseMinScore ?? DEFAULT_DENSE_MIN_SCORE,
  });
  return { results: hits, no_results };
}

/**
 * Ranked chunks without the user-facing top_k cap or verification, for
 * evaluation and internal pipelines (e.g. deep candidate pools).
 */
export async function retrieve(core: CollectionCore, query: string, limit: number, opts: Omit<SearchOptions, "topK" | "verify" | "baseDir"> = {}): Promise<RetrievedChunk[]> {
  checkQuery(query);
  return (await rank(core, query, limit, opts)).map((row) => ({
    chunk_id: row.chunk_id,
    source: row.document.source,
    start_offset: row.start_offset,
    end_offset: row.end_offset,
    score: row.score,
  }));
}

/** The ranking behind search and retrieve (retrieve/search-pipeline.ts). */
function rank(core: CollectionCore, query: string, limit: number, opts: Omit<SearchOptions, "topK">): Promise<ScoredChunk[]> {
  const sources = {
    store: core.store,
    embedder: () => bindEmbedding(core, false),
    reranker: () => core.reranker(),
    settings: core.options.retrieval ?? {},
  };
  return rankChunks(sources, query, limit, opts);
}

/** Reject a negative or fractional context length; 0 (the default) means none. */
function checkContextChars(chars: number | undefined): number {
  const n = chars ?? 0;
  if (!Number.isInteger(n) || n < 0) {
    throw new GroundkitError("INVALID_ARGUMENT", `context_chars must be a non-negative integer; got ${String(chars)}.`);
  }
  return n;
}
