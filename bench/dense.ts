/**
 * Dense-side measurements that do not depend on the collection supporting
 * vectors yet: the local embedding model's throughput (sentences/s on the
 * corpus's own chunks, the ingest bottleneck with `--dense`) and query-embedding
 * latency (reported apart from dense/hybrid search latency), plus a probe of
 * what a dense search on a BM25-only collection answers.
 *
 * Dense/hybrid search itself is measured through `Collection.search` by the
 * suite (query task with mode dense/hybrid) and recorded as
 * "unavailable: <code>" while the library refuses it.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openCollection } from "../src/index.js";
import { DEFAULTS } from "../src/core/config.js";
import { GroundkitError } from "../src/core/errors.js";
import { normalizeNewlines } from "../src/core/text.js";
import { chunkText } from "../src/ingest/chunker.js";
import { round, since, summarize, type Latency } from "./measure.js";
import type { CollectionRef } from "./ours.js";
import { buildQueries } from "./queries.js";

/** Arguments of {@link embeddingTask}. */
export interface EmbeddingArgs {
  /** Folder of corpus documents whose chunks are embedded. */
  corpusDir: string;
  /** How many chunk texts to embed for the throughput figure. */
  sample: number;
  queries: number;
  warmup: number;
  /** Which bundled model: the default `local` (MiniLM) or `use-lite` (the pre-0.2 default), measured side by side. */
  model?: "local" | "use-lite";
  /**
   * The long-chunk case: texts of about this many characters, cut from the corpus's chunks run together
   * (~1,000 characters fill MiniLM's 256-token window, as BEIR abstracts do). Default: the chunks as cut.
   */
  chars?: number;
}

/** The local model's speed. */
export interface EmbeddingResult {
  provider: string;
  model: string;
  dimensions: number;
  /** First call (loads the model in its workers). */
  load_ms: number;
  sentences: number;
  mean_chars: number;
  duration_ms: number;
  sentences_per_s: number;
  query_embedding: Latency;
}

/** Embed a sample of the corpus's chunks and time query embedding with a bundled local provider. */
export async function embeddingTask(args: EmbeddingArgs): Promise<EmbeddingResult | { unavailable: string; message: string }> {
  let registry: typeof import("../src/embed/registry.js");
  try {
    registry = await import("../src/embed/registry.js");
  } catch (err) {
    return { unavailable: "NO_EMBEDDING_PROVIDER", message: (err as Error).message };
  }
  const texts = args.chars === undefined ? chunkTexts(args.corpusDir, args.sample) : longTexts(args.corpusDir, args.sample, args.chars);
  let provider: Awaited<ReturnType<typeof registry.createEmbeddingProvider>>;
  try {
    provider = await registry.createEmbeddingProvider(
      args.model === "use-lite" ? { provider: "use-lite" } : registry.DEFAULT_EMBEDDING_CONFIG,
    );
  } catch (err) {
    if (err instanceof GroundkitError) return { unavailable: err.code, message: err.message };
    throw err;
  }
  try {
    const t0 = performance.now();
    await provider.embedDocuments(texts.slice(0, 4));
    const loadMs = since(t0);
    const t1 = performance.now();
    await provider.embedDocuments(texts);
    const ms = since(t1);
    const queries = buildQueries({ short: args.queries + args.warmup, long12: 0, paragraph: 0 }, 1, 13);
    for (let i = 0; i < args.warmup; i++) await provider.embedQuery(queries[i]!.text);
    const samples: number[] = [];
    for (let i = args.warmup; i < queries.length; i++) {
      const q0 = performance.now();
      await provider.embedQuery(queries[i]!.text);
      samples.push(since(q0));
    }
    return {
      provider: provider.identity.provider,
      model: provider.identity.model,
      dimensions: provider.identity.dimensions,
      load_ms: round(loadMs, 1),
      sentences: texts.length,
      mean_chars: Math.round(texts.reduce((n, t) => n + t.length, 0) / texts.length),
      duration_ms: round(ms, 1),
      sentences_per_s: round(texts.length / (ms / 1000), 2),
      query_embedding: summarize(samples, args.warmup),
    };
  } finally {
    await provider.close?.();
  }
}

/** The first `limit` chunk texts of the corpus under `dir` (or enough for `chars` characters), cut as ingest cuts them. */
function chunkTexts(dir: string, limit: number, chars = Number.POSITIVE_INFINITY): string[] {
  const out: string[] = [];
  let total = 0;
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (out.length >= limit || total >= chars) return;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".md")) {
        const content = normalizeNewlines(readFileSync(p, "utf8"));
        for (const s of chunkText(content, { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap, markdown: true })) {
          if (out.length < limit && total < chars) {
            out.push(s.text);
            total += s.text.length;
          }
        }
      }
    }
  };
  walk(dir);
  return out;
}

/** `limit` texts of about `chars` characters each, cut at whitespace from the corpus's chunks run together. */
function longTexts(dir: string, limit: number, chars: number): string[] {
  const stream = chunkTexts(dir, Number.MAX_SAFE_INTEGER, limit * chars).join("\n\n");
  const out: string[] = [];
  let at = 0;
  while (out.length < limit && at < stream.length) {
    const space = stream.indexOf(" ", at + chars);
    const end = space < 0 ? stream.length : space;
    out.push(stream.slice(at, end).trim());
    at = end + 1;
  }
  return out;
}

/** What a dense search answers on a collection (expected: a refusal with a remedy on a BM25-only one). */
export interface DenseProbe {
  mode: "dense" | "hybrid";
  outcome: "answered" | "refused";
  code?: string;
  message?: string;
  hits?: number;
}

/** Try a dense and a hybrid search on `ref`; record the answer or the refusal's code and message. */
export async function probeTask(args: CollectionRef): Promise<{ probes: DenseProbe[] }> {
  const col = await openCollection(args);
  try {
    const out: DenseProbe[] = [];
    for (const mode of ["dense", "hybrid"] as const) {
      try {
        const hits = await col.search("data index query", { mode, topK: 10 });
        out.push({ mode, outcome: "answered", hits: hits.length });
      } catch (err) {
        if (!(err instanceof GroundkitError)) throw err;
        out.push({ mode, outcome: "refused", code: err.code, message: err.message });
      }
    }
    return { probes: out };
  } finally {
    await col.close();
  }
}
