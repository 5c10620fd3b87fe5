/**
 * `npm run tools:build && node .tools-build/bench/postgres-bm25.js [options]` (HELP below):
 * BM25 in this process at N chunks of the benchmark corpus,
 * three ways over the same collection (ADR 0020):
 *
 * - sqlite: the SQLite store's searchLexical (its postings engine, then the rows);
 * - pg-store: the PostgreSQL store's searchLexical (since ADR 0020 the segment
 *   engine below, over the store's pool; before it, every posting of the
 *   query's terms summed in SQL through the synchronous bridge);
 * - pg-segments: lexical-search.ts over a pg.Pool (segments in the SQLite
 *   block format scored here, one statement), then the hits' rows in a second
 *   statement, as the store does; also with the segments not built yet
 *   (everything in the tail) and with a cold cache (a new engine per query).
 *
 * Writes bench/results/postgres-bm25.json and .md. Run it under `nice`.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { openCollection } from "../src/collection/index.js";
import { DEFAULTS } from "../src/core/config.js";
import { PgLexicalSearch } from "../src/store/postgres/lexical-search.js";
import { syncLexicalSegments } from "../src/store/postgres/lexical-segments.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { CHUNK_COLUMNS, DOC_COLUMNS } from "../src/store/rows.js";
import { openPool } from "../test/support/pg-pool.js";
import { startPostgres } from "../test/support/postgres-server.js";
import { percentileOf } from "../test/support/serve-load.js";
import { integerOption, parseOptions } from "./cli-options.js";
import { exitOnSignal, removeAtExit } from "./exit-on-signal.js";
import { writeCorpus } from "./corpus.js";
import { buildQueries } from "./queries.js";

const HELP = `usage: nice node .tools-build/bench/postgres-bm25.js [options]
  --chunks N   corpus size in chunks (default 20000)
  --out DIR    results folder (default this checkout's bench/results)
`;

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

async function timeAll(queries: string[][], run: (terms: string[]) => Promise<unknown> | unknown): Promise<{ p50: number; p99: number; mean: number }> {
  for (const q of queries.slice(0, 30)) await run(q); // warm-up
  const times: number[] = [];
  for (const q of queries) {
    const t = performance.now();
    await run(q);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return { p50: round3(percentileOf(times, 50)), p99: round3(percentileOf(times, 99)), mean: round3(times.reduce((a, b) => a + b, 0) / times.length) };
}

async function main(): Promise<void> {
  const { values } = parseOptions({
    options: { chunks: { type: "string", default: "20000" }, out: { type: "string", default: resolve(import.meta.dirname, "../../bench/results") } },
    strict: true,
  }, HELP);
  const chunks = integerOption("chunks", values.chunks!);
  const log = (s: string): void => void process.stderr.write(`bench(postgres-bm25): ${s}\n`);
  exitOnSignal();
  const server = await startPostgres();
  const scratch = mkdtempSync(join(tmpdir(), "grk-pg-bm25-"));
  removeAtExit(scratch);
  const pgConfig = { kind: "postgres" as const, url_env: "GRK_BM25_PG_URL", schema: "bench" };
  process.env.GRK_BM25_PG_URL = server.url;
  const pool = openPool(server.url, "bench.default", 2);
  try {
    const docsDir = join(scratch, "docs");
    const counting = { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap };
    const corpus = writeCorpus(docsDir, 0, (_d, c) => c >= chunks, counting);
    log(`corpus: ${corpus.documents} documents, ${corpus.chunks} chunks`);
    const indexDir = join(scratch, "idx");
    for (const store of [undefined, pgConfig]) {
      const col = await openCollection({ indexDir, collection: "default", create: true, ...(store ? { store } : {}) });
      const t = performance.now();
      await col.ingest([docsDir]);
      log(`${store ? "postgres" : "sqlite"}: ingested ${(await col.status()).chunks} chunks in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      await col.close();
    }
    const queries = buildQueries({ short: 400, long12: 80, paragraph: 40 }, corpus.documents).map((q) => analyzeQuery(q.text));
    const sqlite = await SqliteStore.open(join(indexDir, "default.sqlite3"), { create: false });
    const pgStore = await PostgresStore.open(pgConfig, "default", { create: false });
    const rowsSql = `SELECT c.id, ${CHUNK_COLUMNS}, ${DOC_COLUMNS} FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE c.id = ANY($1::bigint[])`;
    const segmentsSearch = (engine: () => PgLexicalSearch) => async (terms: string[]) => {
      const hits = await engine().search(pool, terms, 10);
      if (hits.length > 0) await pool.query(rowsSql, [hits.map((h) => h.rowid)]);
    };
    const results: Record<string, { p50: number; p99: number; mean: number }> = {};
    results.sqlite = await timeAll(queries, (t) => sqlite.searchLexical(t, 10));
    log(`sqlite ${JSON.stringify(results.sqlite)}`);
    results["pg-store"] = await timeAll(queries, (t) => pgStore.searchLexical(t, 10));
    log(`pg-store ${JSON.stringify(results["pg-store"])}`);
    const tailEngine = new PgLexicalSearch();
    results["pg-tail-only"] = await timeAll(queries, segmentsSearch(() => tailEngine));
    log(`pg-tail-only ${JSON.stringify(results["pg-tail-only"])}`);
    const client = await pool.connect();
    const t = performance.now();
    const built = await syncLexicalSegments(client, { flushTail: true });
    client.release();
    const buildSeconds = round3((performance.now() - t) / 1000);
    log(`segments built: ${JSON.stringify(built)} in ${buildSeconds} s`);
    const engine = new PgLexicalSearch();
    results["pg-segments"] = await timeAll(queries, segmentsSearch(() => engine));
    log(`pg-segments ${JSON.stringify(results["pg-segments"])}`);
    results["pg-segments-cold"] = await timeAll(queries, segmentsSearch(() => new PgLexicalSearch()));
    log(`pg-segments-cold ${JSON.stringify(results["pg-segments-cold"])}`);
    await sqlite.close();
    await pgStore.close();
    const report = {
      chunks: corpus.chunks,
      documents: corpus.documents,
      queries: queries.length,
      segment_build_s: buildSeconds,
      machine: { cpus: cpus().length, load_average: loadavg().map((x) => x.toFixed(2)).join(" ") },
      results,
    };
    mkdirSync(values.out!, { recursive: true });
    writeFileSync(join(values.out!, "postgres-bm25.json"), JSON.stringify(report, null, 2) + "\n");
    const md = [
      `# PostgreSQL BM25 in process (${corpus.chunks} chunks, ${queries.length} queries, top 10)`,
      "",
      "| path | p50 ms | p99 ms | mean ms |",
      "|---|---|---|---|",
      ...Object.entries(results).map(([k, v]) => `| ${k} | ${v.p50} | ${v.p99} | ${v.mean} |`),
      "",
      `Segment build (one segment over every chunk): ${buildSeconds} s. Machine: ${report.machine.cpus} cores, load average ${report.machine.load_average}.`,
      "",
    ].join("\n");
    writeFileSync(join(values.out!, "postgres-bm25.md"), md);
    process.stdout.write(md);
  } finally {
    await pool.end();
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
