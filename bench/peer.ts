/**
 * The in-process peer: MiniSearch, the JavaScript search library a user might
 * pick instead of groundkit, over the same corpus and the same queries.
 *
 * Same units: the peer indexes exactly the chunk texts groundkit makes of the
 * corpus (read each file, normalize, cut with groundkit's own chunker and
 * defaults), one MiniSearch document per chunk. Indexing whole files instead
 * would make the peer search fewer, longer units and rank differently, so the
 * latency and memory comparison would not be like for like.
 *
 * Ingest time is files → searchable index for both sides: ours reads, chunks,
 * indexes and persists to SQLite; the peer reads, chunks (reported apart) and
 * builds its in-memory index, which it cannot persist without serializing it all.
 * Memory is what each side holds once searchable, in a fresh process: for the
 * peer its index on the heap, for us the open SQLite connection and its page
 * cache (RSS after GC, minus before). Queries use MiniSearch's defaults (OR of
 * terms, BM25+ ranking, no fuzzy or prefix matching), top 10 kept.
 */
import { readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import MiniSearch from "minisearch";
import { DEFAULTS } from "../src/core/config.js";
import { normalizeNewlines } from "../src/core/text.js";
import { chunkText } from "../src/ingest/chunker.js";
import { mib, round, settledMemory, since } from "./measure.js";
import { timeQueries, type ClassResult } from "./ours.js";
import { buildQueries, QUERY_CLASSES, type QueryClass, type QueryCounts } from "./queries.js";

/** Arguments of {@link peerTask}. */
export interface PeerArgs {
  /** Folders holding the corpus (walked recursively for .md files). */
  dirs: string[];
  counts: QueryCounts;
  documents: number;
  warmup: number;
  /** Per-class timing budget in seconds (see timeQueries). */
  budgetS?: number;
}

/** What the peer measured. */
export interface PeerResult {
  library: string;
  documents: number;
  chunks: number;
  /** Reading and chunking the files (the same work our ingest does first). */
  read_chunk_ms: number;
  /** Building MiniSearch's index from the chunks. */
  index_ms: number;
  /** read_chunk_ms + index_ms: files → searchable. */
  ingest_ms: number;
  classes: Partial<Record<QueryClass, ClassResult>>;
  memory: { rss_delta_mb: number; heap_delta_mb: number; rss_mb: number };
}

function* markdownFiles(dir: string): Generator<string> {
  const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) yield* markdownFiles(p);
    else if (e.name.endsWith(".md")) yield p;
  }
}

/** Build MiniSearch over the corpus's chunks and time the query mix against it. */
export async function peerTask(args: PeerArgs): Promise<PeerResult> {
  const queries = buildQueries(args.counts, args.documents);
  const before = settledMemory();
  const search = new MiniSearch<{ id: number; text: string }>({ fields: ["text"], storeFields: [] });
  let readChunkMs = 0;
  let indexMs = 0;
  let documents = 0;
  let chunks = 0;
  // Batches bound the transient chunk texts; the index is what stays.
  let batch: Array<{ id: number; text: string }> = [];
  const flush = () => {
    const t = performance.now();
    search.addAll(batch);
    indexMs += since(t);
    batch = [];
  };
  for (const dir of args.dirs) {
    for (const file of markdownFiles(dir)) {
      const t = performance.now();
      const content = normalizeNewlines(readFileSync(file, "utf8"));
      const spans = chunkText(content, { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap, markdown: true });
      for (const span of spans) batch.push({ id: chunks++, text: span.text });
      documents++;
      readChunkMs += since(t);
      if (batch.length >= 5000) flush();
    }
  }
  flush();
  const run = (text: string) => search.search(text).slice(0, 10);
  const classes: Partial<Record<QueryClass, ClassResult>> = {};
  for (const cls of QUERY_CLASSES) {
    const set = queries.filter((q) => q.cls === cls);
    if (set.length > 0) classes[cls] = await timeQueries(set, (q) => run(q.text), args.warmup, args.budgetS);
  }
  const after = settledMemory();
  // Keep the index reachable until after the measurement.
  if (search.documentCount !== chunks) throw new Error(`peer indexed ${search.documentCount} of ${chunks} chunks`);
  return {
    library: `minisearch/${MINISEARCH_VERSION}`,
    documents,
    chunks,
    read_chunk_ms: round(readChunkMs, 1),
    index_ms: round(indexMs, 1),
    ingest_ms: round(readChunkMs + indexMs, 1),
    classes,
    memory: { rss_delta_mb: mib(after.rss - before.rss), heap_delta_mb: mib(after.heap - before.heap), rss_mb: mib(after.rss) },
  };
}

/** The installed MiniSearch version (its package.json is not exported, so find it from the entry point). */
const MINISEARCH_VERSION = (() => {
  let dir = dirname(createRequire(import.meta.url).resolve("minisearch"));
  while (dirname(dir) !== dir) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "minisearch" && pkg.version) return pkg.version;
    } catch {
      // no package.json at this level
    }
    dir = dirname(dir);
  }
  return "unknown";
})();
