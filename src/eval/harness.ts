/**
 * The evaluation harness behind `grk eval`: ingest a corpus (golden or BEIR)
 * into a fresh, throwaway collection through the normal pipeline, build the
 * retrieval stages, and run the scorer.
 */
import { mkdir, mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { openCollection, type Collection, type SearchOptions } from "../collection/index.js";
import type { CollectionSettings } from "../collection/settings.js";
import { readContainedFile } from "../source/contained-read.js";
import { fsErrorToGroundkit } from "../core/containment.js";
import { GroundkitError } from "../core/errors.js";
import { getExtractorOf } from "../extract/registry.js";
import { extractorKindForExtension } from "../extract/registry.js";
import type { IngestSummary } from "../ingest/ingest.js";
import { openVectorCache } from "../embed/vector-cache.js";
import { beirDocumentText, readBeirCorpus, readBeirQrels, readBeirQueries, type BeirQuery } from "./beir.js";
import { loadJudgments, readTextContent } from "./judgments.js";
import type { EvalReport } from "./report.js";
import { runBeirEval, runGoldenEval, type EvalProgress, type EvalStage } from "./runner.js";

/** Settings an evaluation run varies (the sweep varies them one at a time). */
export interface EvalSettings {
  chunkSize: number;
  chunkOverlap: number;
}

/** Which stages run beyond the BM25 baseline. */
export interface EvalStages {
  /** Add `dense` and `hybrid` (embeds the corpus). */
  dense?: boolean | undefined;
  /** Add `rerank` (hybrid, or BM25 without --dense, rescored by the cross-encoder). */
  rerank?: boolean | undefined;
  /** Embedding, reranker and retrieval settings (from the config file). */
  collection?: CollectionSettings | undefined;
}

export interface HarnessOptions {
  settings: EvalSettings;
  /**
   * SQLite file caching document vectors across runs (keyed by identity and text hash), so a
   * rerun embeds only what changed; undefined: no cache.
   */
  embeddingCacheFile?: string | undefined;
  stages?: EvalStages | undefined;
  latencyRuns?: number | undefined;
  onProgress?: ((p: EvalProgress | { stage: "ingest" | "embed"; phase: "ingest"; done: number; total: number }) => void) | undefined;
}

/** Ingest into a temporary collection, run `fn`, and always clean up. */
async function withTempCollection(
  opts: HarnessOptions,
  fn: (col: Collection, root: string, timed: Timed) => Promise<EvalReport>,
): Promise<EvalReport> {
  const root = await mkdtemp(join(tmpdir(), "grk-eval-"));
  const cache = opts.embeddingCacheFile !== undefined && opts.stages?.dense ? openVectorCache(opts.embeddingCacheFile) : undefined;
  const col = await openCollection({
    ...opts.stages?.collection,
    indexDir: join(root, "index"),
    collection: "eval",
    create: true,
    vectorCache: cache,
  });
  const times = { ingest_ms: 0, retrieval_ms: 0 };
  const timed: Timed = async (what, fn) => {
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      times[what] += performance.now() - t0;
    }
  };
  try {
    const report = await fn(col, root, timed);
    const stats = cache?.stats ?? { hits: 0, misses: 0, embed_ms: 0 };
    return {
      ...report,
      timings: {
        ingest_ms: Math.round(times.ingest_ms),
        // Without a cache the model's time is not separated from the rest of ingest.
        embed_ms: Math.round(cache ? stats.embed_ms : 0),
        embed_cache_hits: stats.hits,
        embed_cache_misses: stats.misses,
        retrieval_ms: Math.round(times.retrieval_ms),
      },
    };
  } finally {
    await col.close();
    cache?.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** Run `fn`, adding its wall time to the ingest or the retrieval total. */
type Timed = <T>(what: "ingest_ms" | "retrieval_ms", fn: () => Promise<T>) => Promise<T>;

function checkIngest(summary: IngestSummary): void {
  if (summary.failed.length > 0) {
    const f = summary.failed[0]!;
    throw new GroundkitError(
      "DATASET_INVALID",
      `${summary.failed.length} corpus document(s) failed to ingest, e.g. ${f.source}: ${f.message}`,
    );
  }
}

/** The stages to evaluate, mapping each chunk's source to a document id via `docOf`. BM25 is the baseline. */
function stagesFor(col: Collection, docOf: (source: string) => string, wanted: EvalStages = {}): EvalStage[] {
  const stage = (name: string, opts: Omit<SearchOptions, "topK">): EvalStage => ({
    name,
    isBaseline: name === "bm25",
    search: async (query, k) =>
      (await col.retrieve(query, k, opts)).map((r) => ({ doc: docOf(r.source), start: r.start_offset, end: r.end_offset })),
  });
  const stages = [stage("bm25", { mode: "bm25" })];
  if (wanted.dense) stages.push(stage("dense", { mode: "dense" }), stage("hybrid", { mode: "hybrid" }));
  if (wanted.rerank) stages.push(stage("rerank", { mode: wanted.dense ? "hybrid" : "bm25", rerank: true }));
  return stages;
}

/** Ingest the corpus (embedding it when dense stages are wanted). */
async function ingestCorpus(col: Collection, dir: string, opts: HarnessOptions): Promise<void> {
  checkIngest(
    await col.ingest([dir], {
      ...opts.settings,
      dense: opts.stages?.dense ?? false,
      onEmbedProgress: (done, total) => opts.onProgress?.({ stage: "embed", phase: "ingest", done, total }),
    }),
  );
}

/** What produced the numbers, echoed into the report. */
async function configEcho(col: Collection, opts: HarnessOptions): Promise<Record<string, unknown>> {
  return {
    chunk_size: opts.settings.chunkSize,
    chunk_overlap: opts.settings.chunkOverlap,
    embedding: (await col.status()).embedding,
    reranker: opts.stages?.rerank ? (opts.stages.collection?.reranker ?? null) : null,
    retrieval: opts.stages?.collection?.retrieval ?? null,
  };
}

/** Content of a golden document exactly as the index stores it (extractors for PDF/HTML). */
export async function goldenContent(docPath: string): Promise<string> {
  const kind = extractorKindForExtension(docPath.slice(docPath.lastIndexOf(".")));
  if (!kind) return readTextContent(docPath);
  const outcome = await getExtractorOf(kind);
  if ("problem" in outcome) {
    // A missing optional package (pdf.js) keeps its code, so the install command in the message is the hint to follow.
    throw new GroundkitError(outcome.code ?? "EXTRACTION_FAILED", `No ${kind} extractor is available for ${docPath}: ${outcome.problem}.`);
  }
  const { extractor } = outcome;
  const real = await realpath(docPath).catch((err: unknown) => {
    throw fsErrorToGroundkit(err, docPath);
  });
  return (await extractor.extract(await readContainedFile(real, 64 * 1024 * 1024, docPath))).text;
}

/** Evaluate a quote-anchored judgment set over a corpus folder. */
export async function evaluateGolden(
  corpusDir: string,
  judgmentsFile: string,
  opts: HarnessOptions,
): Promise<EvalReport> {
  const corpus = resolve(corpusDir);
  const judgments = await loadJudgments(judgmentsFile, corpus, { contentOf: goldenContent });
  return withTempCollection(opts, async (col, _root, timed) => {
    opts.onProgress?.({ stage: "ingest", phase: "ingest", done: 0, total: 1 });
    await timed("ingest_ms", () => ingestCorpus(col, corpus, opts));
    const docOf = (source: string) => relative(corpus, source).split(sep).join("/");
    const echo = await configEcho(col, opts);
    return timed("retrieval_ms", () =>
      runGoldenEval(judgments, stagesFor(col, docOf, opts.stages), {
        latencyRuns: opts.latencyRuns,
        onProgress: opts.onProgress,
        config: { corpus_dir: corpusDir, judgments: judgmentsFile, ...echo },
      }),
    );
  });
}

/** File name for a BEIR `_id`: hex-encoded so any id is a safe, reversible name. */
function fileNameFor(id: string): string {
  return Buffer.from(id, "utf8").toString("hex") + ".txt";
}

function idFromSource(source: string): string {
  const name = source.slice(source.lastIndexOf(sep) + 1, -".txt".length);
  return Buffer.from(name, "hex").toString("utf8");
}

/**
 * Evaluate on a BEIR-format dataset at document level. Documents go through the
 * normal pipeline: each becomes a `.txt` file (title, blank line, text) that is ingested.
 */
export async function evaluateBeir(dir: string, split: string, opts: HarnessOptions): Promise<EvalReport> {
  const qrels = await readBeirQrels(dir, split);
  const queries: BeirQuery[] = [];
  for await (const q of readBeirQueries(dir)) queries.push(q);
  return withTempCollection(opts, async (col, root, timed) => {
    const docsDir = join(root, "corpus");
    await mkdir(docsDir);
    let count = 0;
    for await (const doc of readBeirCorpus(dir)) {
      await writeFile(join(docsDir, fileNameFor(doc._id)), beirDocumentText(doc));
      if (++count % 500 === 0) opts.onProgress?.({ stage: "ingest", phase: "ingest", done: count, total: 0 });
    }
    await timed("ingest_ms", () => ingestCorpus(col, docsDir, opts));
    const echo = await configEcho(col, opts);
    return timed("retrieval_ms", () =>
      runBeirEval(queries, qrels, stagesFor(col, idFromSource, opts.stages), {
        latencyRuns: opts.latencyRuns,
        onProgress: opts.onProgress,
        config: { dataset: dir, split, documents: count, ...echo },
      }),
    );
  });
}
