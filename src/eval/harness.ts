/**
 * The evaluation harness behind `grk eval`: ingest a corpus (golden or BEIR)
 * into a fresh, throwaway collection through the normal pipeline, build the
 * retrieval stages, and run the scorer.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { openCollection, type Collection } from "../collection.js";
import { GroundkitError } from "../core/errors.js";
import { getExtractorRegistry } from "../extract/registry.js";
import { extractorKindForExtension } from "../extract/registry.js";
import type { IngestSummary } from "../ingest/ingest.js";
import { readFileCapped } from "../ingest/text-loader.js";
import { beirDocumentText, readBeirCorpus, readBeirQrels, readBeirQueries, type BeirQuery } from "./beir.js";
import { loadJudgments, readTextContent } from "./judgments.js";
import type { EvalReport } from "./report.js";
import { runBeirEval, runGoldenEval, type EvalProgress, type EvalStage } from "./runner.js";

/** Settings an evaluation run varies (the sweep varies them one at a time). */
export interface EvalSettings {
  chunkSize: number;
  chunkOverlap: number;
}

export interface HarnessOptions {
  settings: EvalSettings;
  latencyRuns?: number | undefined;
  onProgress?: ((p: EvalProgress | { stage: "ingest"; phase: "ingest"; done: number; total: number }) => void) | undefined;
}

/** Ingest into a temporary collection, run `fn`, and always clean up. */
async function withTempCollection<T>(fn: (col: Collection, root: string) => Promise<T>): Promise<T> {
  const root = await mkdtemp(join(tmpdir(), "grk-eval-"));
  const col = openCollection({ indexDir: join(root, "index"), collection: "eval", create: true });
  try {
    return await fn(col, root);
  } finally {
    col.close();
    await rm(root, { recursive: true, force: true });
  }
}

function checkIngest(summary: IngestSummary): void {
  if (summary.failed.length > 0) {
    const f = summary.failed[0]!;
    throw new GroundkitError(
      "DATASET_INVALID",
      `${summary.failed.length} corpus document(s) failed to ingest, e.g. ${f.source}: ${f.message}`,
    );
  }
}

/** The lexical stage, mapping each chunk's source to a document id via `docOf`. */
function bm25Stage(col: Collection, docOf: (source: string) => string): EvalStage {
  return {
    name: "bm25",
    isBaseline: true,
    search: async (query, k) =>
      (await col.retrieve(query, k)).map((r) => ({ doc: docOf(r.source), start: r.start_offset, end: r.end_offset })),
  };
}

/** Content of a golden document exactly as the index stores it (extractors for PDF/HTML). */
export async function goldenContent(docPath: string): Promise<string> {
  const kind = extractorKindForExtension(docPath.slice(docPath.lastIndexOf(".")));
  if (!kind) return readTextContent(docPath);
  const extractor = (await getExtractorRegistry()).get(kind);
  if (!extractor) throw new GroundkitError("EXTRACTION_FAILED", `No ${kind} extractor is available for ${docPath}.`);
  return (await extractor.extract(await readFileCapped(docPath, 64 * 1024 * 1024))).text;
}

/** Evaluate a quote-anchored judgment set over a corpus folder. */
export async function evaluateGolden(
  corpusDir: string,
  judgmentsFile: string,
  opts: HarnessOptions,
): Promise<EvalReport> {
  const corpus = resolve(corpusDir);
  const judgments = await loadJudgments(judgmentsFile, corpus, { contentOf: goldenContent });
  return withTempCollection(async (col) => {
    opts.onProgress?.({ stage: "ingest", phase: "ingest", done: 0, total: 1 });
    checkIngest(await col.ingest([corpus], { ...opts.settings }));
    const docOf = (source: string) => relative(corpus, source).split(sep).join("/");
    return runGoldenEval(judgments, [bm25Stage(col, docOf)], {
      latencyRuns: opts.latencyRuns,
      onProgress: opts.onProgress,
      config: { corpus_dir: corpusDir, judgments: judgmentsFile, chunk_size: opts.settings.chunkSize, chunk_overlap: opts.settings.chunkOverlap },
    });
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
  return withTempCollection(async (col, root) => {
    const docsDir = join(root, "corpus");
    await mkdir(docsDir);
    let count = 0;
    for await (const doc of readBeirCorpus(dir)) {
      await writeFile(join(docsDir, fileNameFor(doc._id)), beirDocumentText(doc));
      if (++count % 500 === 0) opts.onProgress?.({ stage: "ingest", phase: "ingest", done: count, total: 0 });
    }
    checkIngest(await col.ingest([docsDir], { ...opts.settings }));
    return runBeirEval(queries, qrels, [bm25Stage(col, idFromSource)], {
      latencyRuns: opts.latencyRuns,
      onProgress: opts.onProgress,
      config: { dataset: dir, split, documents: count, chunk_size: opts.settings.chunkSize, chunk_overlap: opts.settings.chunkOverlap },
    });
  });
}
