/**
 * `npm run tools:build && node .tools-build/bench/postgres-store.js [--docs N]`:
 * the PostgreSQL store beside the SQLite store in one run, on a throwaway
 * local PostgreSQL cluster (the tests' helper):
 *
 * - the synchronous bridge's cost per call: `SELECT 1` through the worker
 *   thread and Atomics.wait, against the same statement on an async pg client;
 * - ingest chunks/s and BM25 p50/p99 over the same generated corpus in both stores.
 *
 * Writes bench/results/postgres-store.json and .md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { openCollection, type Collection } from "../src/collection.js";
import { resolvePoolSettings } from "../src/store/postgres/connection-settings.js";
import { SyncConnection } from "../src/store/postgres/sync-connection.js";
import { startPostgres } from "../test/support/postgres-server.js";
import { writeCorpus } from "../test/support/corpus.js";

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { docs: { type: "string", default: "2000" }, out: { type: "string", default: "bench/results" } } });
  const docs = Number(values.docs);
  const pg = await startPostgres();
  const scratch = mkdtempSync(join(tmpdir(), "grk-pg-bench-"));
  process.env.GRK_BENCH_PG_URL = pg.url;
  const store = { kind: "postgres" as const, url_env: "GRK_BENCH_PG_URL", schema: "bench" };
  try {
    // 1. Per-call cost of the bridge.
    const calls = 5000;
    const sync = new SyncConnection(resolvePoolSettings(store), "public");
    for (let i = 0; i < 200; i++) sync.query("SELECT 1");
    const syncTimes: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      sync.query("SELECT 1");
      syncTimes.push(performance.now() - t);
    }
    sync.close();
    const pgModule = createRequire(import.meta.url)("pg") as { Client: new (o: { connectionString: string }) => { connect(): Promise<void>; query(s: string): Promise<unknown>; end(): Promise<void> } };
    const client = new pgModule.Client({ connectionString: pg.url });
    await client.connect();
    for (let i = 0; i < 200; i++) await client.query("SELECT 1");
    const asyncTimes: number[] = [];
    for (let i = 0; i < calls; i++) {
      const t = performance.now();
      await client.query("SELECT 1");
      asyncTimes.push(performance.now() - t);
    }
    await client.end();
    syncTimes.sort((a, b) => a - b);
    asyncTimes.sort((a, b) => a - b);

    // 2. Ingest and BM25 on both stores.
    const corpus = join(scratch, "corpus");
    writeCorpus(corpus, docs);
    const stores: Record<string, { chunks: number; ingest_chunks_per_s: number; bm25_p50_ms: number; bm25_p99_ms: number }> = {};
    const words = "index citation source verify chunk offset passage retrieval ranking query engine backup restore cluster replica latency vector lexical snapshot schema migration commit".split(" ");
    const queries = Array.from({ length: 300 }, (_, i) => `${words[i % words.length]} ${words[(i * 7 + 3) % words.length]}`);
    for (const kind of ["sqlite", "postgres"] as const) {
      const col: Collection = openCollection({
        indexDir: join(scratch, `idx-${kind}`),
        collection: "bench",
        create: true,
        ...(kind === "postgres" ? { store } : {}),
      });
      try {
        const t = performance.now();
        await col.ingest([corpus]);
        const seconds = (performance.now() - t) / 1000;
        const chunks = col.status().chunks;
        const times: number[] = [];
        for (const q of queries) {
          const s = performance.now();
          await col.retrieve(q, 10);
          times.push(performance.now() - s);
        }
        times.sort((a, b) => a - b);
        stores[kind] = { chunks, ingest_chunks_per_s: Math.round(chunks / seconds), bm25_p50_ms: percentile(times, 50), bm25_p99_ms: percentile(times, 99) };
      } finally {
        col.close();
      }
    }
    const result = {
      machine_note: "shared machine (2 cores, other agents running)",
      docs,
      bridge: {
        calls,
        sync_select1_p50_us: Math.round(percentile(syncTimes, 50) * 1000),
        sync_select1_p99_us: Math.round(percentile(syncTimes, 99) * 1000),
        async_select1_p50_us: Math.round(percentile(asyncTimes, 50) * 1000),
        async_select1_p99_us: Math.round(percentile(asyncTimes, 99) * 1000),
      },
      stores,
    };
    mkdirSync(values.out!, { recursive: true });
    writeFileSync(join(values.out!, "postgres-store.json"), JSON.stringify(result, null, 2) + "\n");
    const md = [
      `# PostgreSQL store beside SQLite (${docs} generated documents; ${result.machine_note})`,
      "",
      `Bridge, SELECT 1 x ${calls}: sync (worker + Atomics.wait) p50 ${result.bridge.sync_select1_p50_us} µs, p99 ${result.bridge.sync_select1_p99_us} µs; ` +
        `async pg client p50 ${result.bridge.async_select1_p50_us} µs, p99 ${result.bridge.async_select1_p99_us} µs.`,
      "",
      "| store | chunks | ingest chunks/s | BM25 p50 ms | BM25 p99 ms |",
      "|---|---|---|---|---|",
      ...Object.entries(stores).map(([k, v]) => `| ${k} | ${v.chunks} | ${v.ingest_chunks_per_s} | ${v.bm25_p50_ms.toFixed(2)} | ${v.bm25_p99_ms.toFixed(2)} |`),
      "",
    ].join("\n");
    writeFileSync(join(values.out!, "postgres-store.md"), md);
    process.stdout.write(md);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    await pg.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
