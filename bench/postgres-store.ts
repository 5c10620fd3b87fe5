/**
 * `npm run bench -- --store postgres [options]` (POSTGRES_HELP below):
 * the PostgreSQL store beside the SQLite store in one run, on a throwaway
 * local PostgreSQL cluster (test/support/postgres-server.ts; with fsync on by
 * default, as a user's server runs, and the settings printed), over the
 * benchmark corpus (bench/corpus.ts) cut at N chunks (default 100,000):
 *
 * - ingest chunks/s into each store (in this process, through the library),
 *   and the CPU seconds per 1,000 chunks of this process and of PostgreSQL;
 * - BM25 p50/p99 in this process over the benchmark query mix, both stores
 *   query by query (bench/paired-latency.ts): in steady state, and over the
 *   first queries after opening;
 * - the store's pool's cost per call (`SELECT 1` through store/postgres/pg-pool.ts,
 *   against a bare pg client);
 * - served req/s at C concurrent clients (default 64) against real
 *   `grk serve` processes: SQLite with 1, PostgreSQL with 1 and with 3
 *   sharing one database, 3 while one of them ingests a further 2% of
 *   the corpus (errors counted: must be 0), and 3 reading from a streaming
 *   replica of the database (started then: pg_basebackup, hot standby); for
 *   each, the CPU seconds per 1,000 requests of the servers and of PostgreSQL
 *   (primary and replica: bench/proc-cpu.ts) and the throughput they predict
 *   on more cores.
 *
 * With --cpu-lock, the ingest runs under the shared lock and the timed
 * phases under the exclusive one. Writes bench/results/postgres-store.json and .md.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { cpus, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { openCollection, type Collection } from "../src/collection/index.js";
import { DEFAULTS } from "../src/core/config.js";
import { resolvePoolSettings } from "../src/store/postgres/connection-settings.js";
import { PgPool } from "../src/store/postgres/pg-pool.js";
import { startPostgres, startReplica, type TestPostgres } from "../test/support/postgres-server.js";
import { percentileOf, runLoad, startServes, type LoadResult, type ServeProcess } from "../test/support/serve-load.js";
import { underCpuLock } from "./cpu-lock.js";
import { postmasterPid, treeCpuSeconds } from "./proc-cpu.js";
import { writeCorpus } from "./corpus.js";
import { integerOption, parseOptions, usage } from "./cli-options.js";
import { exitOnSignal, removeAtExit } from "./exit-on-signal.js";
import { pairedLatency, type LatencyFigures } from "./paired-latency.js";
import { buildQueries } from "./queries.js";

const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");
const TOKEN = "bench-token";
const round2 = (x: number): number => Math.round(x * 100) / 100;
const roundOrNull = (x: number | undefined): number | null => (x === undefined ? null : round2(x));
const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Queries timed in steady state (the mix's proportions). */
const STEADY_QUERIES = 520;

/** `n` queries of the benchmark mix's proportions (200 : 40 : 20), from their own seed. */
function mixOf(n: number, documents: number, seed: number): string[] {
  const short = Math.round((n * 200) / 260);
  const long12 = Math.round((n * 40) / 260);
  return buildQueries({ short, long12, paragraph: n - short - long12 }, documents, seed).map((q) => q.text);
}

/** The server's values of `names` (what the figures were measured under). */
async function showSettings(url: string, names: string[]): Promise<Record<string, string>> {
  const pgModule = createRequire(import.meta.url)("pg") as {
    Client: new (o: { connectionString: string }) => {
      connect(): Promise<void>;
      query(s: string, v: unknown[]): Promise<{ rows: Array<{ name: string; setting: string }> }>;
      end(): Promise<void>;
    };
  };
  const client = new pgModule.Client({ connectionString: url });
  await client.connect();
  try {
    const rows = (await client.query("SELECT name, current_setting(name) AS setting FROM unnest($1::text[]) AS name", [names])).rows;
    return Object.fromEntries(rows.map((r) => [r.name, r.setting]));
  } finally {
    await client.end();
  }
}

interface StoreFigures {
  documents: number;
  chunks: number;
  ingest_s: number;
  ingest_chunks_per_s: number;
  /** BM25 in steady state: after 1,000 other queries, over queries the process has not seen (bench/paired-latency.ts). */
  bm25_queries: number;
  bm25_p50_ms: number | null;
  bm25_p99_ms: number | null;
  /** BM25 over the first queries after opening the collection (20 warm-up queries, then the mix). */
  bm25_first_queries: number;
  bm25_first_p50_ms: number | null;
  bm25_first_p99_ms: number | null;
  /** CPU seconds per 1,000 chunks ingested: this process (extraction, chunking, the store's client side) and the PostgreSQL cluster. */
  ingest_cpu_s_per_1k_chunks: { groundkit: number; postgres: number };
}

interface LoadFigures {
  phase: string;
  store: "sqlite" | "postgres";
  servers: number;
  clients: number;
  seconds: number;
  requests_ok: number;
  errors: number;
  requests_per_s: number;
  p50_ms: number;
  p99_ms: number;
  problems: string[];
  ingest?: { status: number; indexed: number; chunks_written: number; failed: number; seconds: number } | undefined;
  /** CPU seconds per 1,000 requests (answered or not) of the server processes, the PostgreSQL cluster's processes, and the load generator. */
  cpu_s_per_1k?: { groundkit: number; postgres: number; client: number };
  /** Requests per second the servers' and PostgreSQL's CPU per request allow with all of `cores` cores busy (the clients elsewhere). */
  predicted_rps?: Record<string, number>;
  load_average?: string;
  /** The replica phase: what each server's /readyz said of the replica after the run, and the CPU split between the two servers. */
  replica?: { readyz: string[]; postgres_cpu_s_per_1k: { primary: number; replica: number } };
}

/** Core counts the prediction is printed for: this machine's, and larger ones. */
const PREDICT_CORES = [cpus().length, 8, 16, 32];

/**
 * What a phase's CPU readings say: seconds per 1,000 requests, and the
 * throughput a CPU-bound run reaches with every core busy serving (enough
 * server processes or --workers to use them; PostgreSQL on the same cores).
 * It leaves out what CPU time does not show: lock waits, network, and the
 * scheduling delays of a shared machine, so it is a ceiling, not a promise.
 */
function cpuFigures(cpu: { groundkit: number; postgres: number; client: number }, requests: number): Pick<LoadFigures, "cpu_s_per_1k" | "predicted_rps"> {
  if (requests === 0) return {};
  const per = (x: number): number => Math.round((x / requests) * 1000 * 1000) / 1000;
  const serving = (cpu.groundkit + cpu.postgres) / requests;
  return {
    cpu_s_per_1k: { groundkit: per(cpu.groundkit), postgres: per(cpu.postgres), client: per(cpu.client) },
    predicted_rps: Object.fromEntries(PREDICT_CORES.map((c) => [`${c}_cores`, Math.round(c / serving)])),
  };
}

function loadFigures(phase: string, store: "sqlite" | "postgres", r: LoadResult): LoadFigures {
  return {
    phase,
    store,
    servers: r.servers,
    clients: r.clients,
    seconds: r.seconds,
    requests_ok: r.ok,
    errors: r.errors + r.bad,
    requests_per_s: r.requests_per_s,
    p50_ms: round2(percentileOf(r.latencies_ms, 50)),
    p99_ms: round2(percentileOf(r.latencies_ms, 99)),
    problems: r.problems,
  };
}

function loadLine(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join("/");
}

/** The options, as `npm run bench -- --store postgres --help` prints them. */
export const POSTGRES_HELP = `usage: npm run bench -- --store postgres [options]
  --chunks N          corpus size in chunks (default 100000)
  --seconds S         each served phase's timed length (default 10)
  --clients C         concurrent clients in the served phases (default 64)
  --only a,b          timed phases: bm25,served (default both; the ingest always runs)
  --fsync on|off      the throwaway server's fsync (default on, as a user's server runs)
  --cpu-lock FILE     ingest under the shared lock, timed phases under the exclusive one
  --out DIR           results folder (default bench/results)
  --name NAME         results file name (default postgres-store)
`;

/** Run the PostgreSQL-beside-SQLite benchmark with command-line `argv`. */
export async function runPostgresStoreBench(argv: string[]): Promise<void> {
  const { values } = parseOptions({
    args: argv,
    options: {
      chunks: { type: "string", default: "100000" },
      seconds: { type: "string", default: "10" },
      clients: { type: "string", default: "64" },
      "cpu-lock": { type: "string" },
      out: { type: "string", default: "bench/results" },
      name: { type: "string", default: "postgres-store" },
      only: { type: "string", default: "bm25,served" },
      // on: the server fsyncs its commits, as every PostgreSQL a user runs does; off: the test suite's throwaway setting.
      fsync: { type: "string", default: "on" },
    },
    strict: true,
  }, POSTGRES_HELP);
  const targetChunks = integerOption("chunks", values.chunks!);
  const seconds = Number(values.seconds);
  if (!(seconds > 0 && Number.isFinite(seconds))) usage(`--seconds must be a positive number, not '${values.seconds}'`);
  const clients = integerOption("clients", values.clients!);
  const lockFile = values["cpu-lock"];
  // The ingest always runs (it builds what the other phases read); the timed phases can be chosen.
  const only = new Set(values.only!.split(",").map((s) => s.trim()));
  for (const p of only) if (p !== "bm25" && p !== "served") usage(`--only takes bm25 and/or served, not '${p}'`);
  if (values.fsync !== "on" && values.fsync !== "off") usage(`--fsync takes on or off, not '${values.fsync}'`);
  const log = (s: string): void => void process.stderr.write(`bench(postgres): ${s}\n`);
  exitOnSignal();
  const pg = await startPostgres({ durable: values.fsync === "on" });
  const serverSettings = await showSettings(pg.url, ["fsync", "synchronous_commit", "shared_buffers", "wal_level", "max_wal_size"]);
  const postmaster = postmasterPid(pg.dataDir);
  const scratch = mkdtempSync(join(tmpdir(), "grk-pg-bench-"));
  removeAtExit(scratch);
  const pgConfig = { kind: "postgres" as const, url_env: "GRK_BENCH_PG_URL", schema: "bench" };
  process.env.GRK_BENCH_PG_URL = pg.url;
  let replica: TestPostgres | undefined;
  const servers: ServeProcess[] = [];
  const stopServers = async (): Promise<void> => {
    await Promise.all(servers.splice(0).map((s) => s.stop()));
  };
  try {
    const docsDir = join(scratch, "docs");
    const moreDir = join(scratch, "more");
    const counting = { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap };
    const corpus = writeCorpus(docsDir, 0, (_d, c) => c >= targetChunks, counting);
    // What one server ingests during the load: 2% more documents, never seen before.
    const more = writeCorpus(moreDir, corpus.end_doc, (d) => d >= Math.max(50, Math.round(corpus.documents * 0.02)), counting);
    log(`corpus: ${corpus.documents} documents, ${corpus.chunks} chunks; ingest increment ${more.documents} documents`);
    const indexDirs = { sqlite: join(scratch, "idx-sqlite"), postgres: join(scratch, "idx-postgres") };
    const configs = { sqlite: join(scratch, "sqlite.json"), postgres: join(scratch, "postgres.json"), replica: join(scratch, "postgres-replica.json") };
    writeFileSync(configs.sqlite, "{}");
    writeFileSync(configs.postgres, JSON.stringify({ store: pgConfig }));
    // The same collection, its reads from the replica (docs/postgres.md, "Read replicas"); the URL is set once it runs.
    writeFileSync(configs.replica, JSON.stringify({ store: { ...pgConfig, replicas: [{ url_env: "GRK_BENCH_PG_REPLICA_URL" }] } }));
    const open = (kind: "sqlite" | "postgres"): Promise<Collection> =>
      openCollection({ indexDir: indexDirs[kind], collection: "default", create: true, ...(kind === "postgres" ? { store: pgConfig } : {}) });

    // 1. Ingest (untimed for the machine's sake: under the shared lock).
    const ingest: Record<string, { chunks: number; documents: number; seconds: number; cpu: { groundkit: number; postgres: number } }> = {};
    const loadAtIngest = loadLine();
    await underCpuLock(lockFile, "shared", async () => {
      for (const kind of ["sqlite", "postgres"] as const) {
        const col = await open(kind);
        try {
          const t = performance.now();
          const cpu0 = { groundkit: process.cpuUsage(), postgres: treeCpuSeconds([postmaster]) };
          await col.ingest([docsDir]);
          const s = (performance.now() - t) / 1000;
          const own = process.cpuUsage(cpu0.groundkit);
          const cpu = { groundkit: (own.user + own.system) / 1e6, postgres: treeCpuSeconds([postmaster]) - cpu0.postgres };
          const st = await col.status();
          ingest[kind] = { chunks: st.chunks, documents: st.documents, seconds: s, cpu };
          log(`${kind}: ingested ${st.chunks} chunks in ${s.toFixed(1)} s`);
        } finally {
          await col.close();
        }
      }
    });

    // 2. Everything timed, under the exclusive lock.
    const timed = await underCpuLock(lockFile, "exclusive", async () => {
      const loadAtStart = loadLine();
      log(`timed phases start, load average ${loadAtStart}`);
      // 2a. The store pool's cost per call.
      const calls = 2000;
      const storePool = await PgPool.create(resolvePoolSettings(pgConfig), "public");
      for (let i = 0; i < 200; i++) await storePool.query("SELECT 1");
      const syncTimes: number[] = [];
      for (let i = 0; i < calls; i++) {
        const t = performance.now();
        await storePool.query("SELECT 1");
        syncTimes.push(performance.now() - t);
      }
      await storePool.close();
      const pgModule = createRequire(import.meta.url)("pg") as {
        Client: new (o: { connectionString: string }) => { connect(): Promise<void>; query(s: string): Promise<unknown>; end(): Promise<void> };
      };
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

      // 2b. BM25 in process, both stores side by side, query by query (bench/paired-latency.ts).
      const queries = buildQueries({ short: 200, long12: 40, paragraph: 20 }, corpus.documents).map((q) => q.text);
      const bm25: Partial<Record<"first" | "steady", Record<"sqlite" | "postgres", LatencyFigures>>> = {};
      if (only.has("bm25")) {
        const cols = { sqlite: await open("sqlite"), postgres: await open("postgres") };
        try {
          const searchers = { sqlite: (q: string) => cols.sqlite.retrieve(q, 10), postgres: (q: string) => cols.postgres.retrieve(q, 10) };
          // First after open: 20 warm-up queries, then the mix (compiling code and filling caches weigh on these).
          await pairedLatency(searchers, queries.slice(0, 20));
          bm25.first = await pairedLatency(searchers, queries);
          // Steady: a serving process's state (compiled code, warm caches and connections) after 1,000 other
          // queries, then queries it has never seen.
          await pairedLatency(searchers, mixOf(1000, corpus.documents, 13));
          bm25.steady = await pairedLatency(searchers, mixOf(STEADY_QUERIES, corpus.documents, 11));
          for (const kind of ["sqlite", "postgres"] as const) {
            const f = bm25.first[kind];
            const st = bm25.steady[kind];
            log(`${kind}: BM25 steady p50 ${round2(st.p50)} ms, p99 ${round2(st.p99)} ms; first after open p50 ${round2(f.p50)} ms, p99 ${round2(f.p99)} ms`);
          }
        } finally {
          await Promise.all([cols.sqlite.close(), cols.postgres.close()]);
        }
      }

      // 2c. Served load.
      const env: NodeJS.ProcessEnv = { ...process.env, GROUNDKIT_API_TOKEN: TOKEN };
      const search = (i: number) => ({ path: "/v1/search", body: { query: queries[i % queries.length], top_k: 10 } });
      const loads: LoadFigures[] = [];
      const phase = async (
        name: string,
        kind: "sqlite" | "postgres",
        n: number,
        opts: { during?: (s: ServeProcess[]) => Promise<LoadFigures["ingest"]>; replica?: TestPostgres } = {},
      ) => {
        const config = opts.replica ? configs.replica : configs[kind];
        servers.push(...(await startServes(CLI, n, ["--config", config, "--index-dir", indexDirs[kind], "--allowed-root", scratch], { cwd: scratch, env })));
        const urls = servers.map((s) => s.url);
        await runLoad(urls, { clients, seconds: 1, request: search }); // warm-up
        let ingestResult: LoadFigures["ingest"];
        const background = opts.during?.(servers).then((r) => (ingestResult = r));
        const pids = servers.map((s) => s.child.pid!);
        // The replica's processes are PostgreSQL's too.
        const standby = opts.replica ? postmasterPid(opts.replica.dataDir) : undefined;
        const pgCpu = (): { primary: number; replica: number } => ({
          primary: treeCpuSeconds([postmaster]),
          replica: standby === undefined ? 0 : treeCpuSeconds([standby]),
        });
        const cpu0 = { groundkit: treeCpuSeconds(pids), postgres: pgCpu(), client: process.cpuUsage() };
        const r = await runLoad(urls, { clients, seconds, until: background, request: search });
        const client = process.cpuUsage(cpu0.client);
        const pgAfter = pgCpu();
        const pgSpent = { primary: pgAfter.primary - cpu0.postgres.primary, replica: pgAfter.replica - cpu0.postgres.replica };
        const cpu = {
          groundkit: treeCpuSeconds(pids) - cpu0.groundkit,
          postgres: pgSpent.primary + pgSpent.replica,
          client: (client.user + client.system) / 1e6,
        };
        const requests = r.ok + r.errors + r.bad;
        const figures: LoadFigures = { ...loadFigures(name, kind, r), ingest: ingestResult, ...cpuFigures(cpu, requests), load_average: loadLine() };
        if (opts.replica && requests > 0) {
          const readyz = await Promise.all(urls.map((u) => replicaReadiness(u)));
          // A replica passed over means the reads went to the primary: not the phase it claims to be.
          for (const line of readyz) if (!line.startsWith("serving")) figures.problems.push(`replica: ${line}`);
          const per = (x: number): number => Math.round((x / requests) * 1000 * 1000) / 1000;
          figures.replica = { readyz, postgres_cpu_s_per_1k: { primary: per(pgSpent.primary), replica: per(pgSpent.replica) } };
        }
        loads.push(figures);
        log(
          `${name}: ${figures.requests_per_s} req/s, ${figures.errors} errors, p50 ${figures.p50_ms} ms, p99 ${figures.p99_ms} ms; ` +
            `CPU s per 1,000: groundkit ${figures.cpu_s_per_1k?.groundkit}, postgres ${figures.cpu_s_per_1k?.postgres}` +
            (figures.replica ? ` (primary ${figures.replica.postgres_cpu_s_per_1k.primary}, replica ${figures.replica.postgres_cpu_s_per_1k.replica})` : "") +
            `; load ${figures.load_average}` +
            (figures.problems.length > 0 ? `; problems: ${figures.problems.join("; ")}` : ""),
        );
        await stopServers();
      };
      if (only.has("served")) {
      await phase("sqlite, 1 server", "sqlite", 1);
      await phase("postgres, 1 server", "postgres", 1);
      await phase("postgres, 3 servers", "postgres", 3);
      await phase("postgres, 3 servers, server 1 ingesting", "postgres", 3, { during: async (s) => {
        const t = performance.now();
        const res = await fetch(`${s[0]!.url}/v1/collections/default/ingest`, {
          method: "POST",
          headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
          body: JSON.stringify({ inputs: [moreDir] }),
        });
        const body = (await res.json()) as { indexed?: number; chunks_written?: number; failed?: unknown[] };
        return {
          status: res.status,
          indexed: body.indexed ?? 0,
          chunks_written: body.chunks_written ?? 0,
          failed: body.failed?.length ?? 0,
          seconds: round2((performance.now() - t) / 1000),
        };
      } });
      // A streaming replica of the database as it now is (the increment included), and 3 servers reading from it.
      const t = performance.now();
      replica = await startReplica(pg);
      env.GRK_BENCH_PG_REPLICA_URL = replica.url;
      log(`replica started (pg_basebackup + start) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      await phase("postgres, 3 servers reading from a replica", "postgres", 3, { replica });
      }
      return {
        loadAtStart,
        loadAtEnd: loadLine(),
        bridge: {
          calls,
          sync_select1_p50_us: Math.round(percentileOf(syncTimes, 50) * 1000),
          sync_select1_p99_us: Math.round(percentileOf(syncTimes, 99) * 1000),
          async_select1_p50_us: Math.round(percentileOf(asyncTimes, 50) * 1000),
          async_select1_p99_us: Math.round(percentileOf(asyncTimes, 99) * 1000),
        },
        bm25,
        queries: queries.length,
        loads,
      };
    });

    const stores: Record<string, StoreFigures> = {};
    for (const kind of ["sqlite", "postgres"] as const) {
      const i = ingest[kind]!;
      stores[kind] = {
        documents: i.documents,
        chunks: i.chunks,
        ingest_s: round2(i.seconds),
        ingest_chunks_per_s: Math.round(i.chunks / i.seconds),
        // The PostgreSQL cluster's CPU counts for SQLite too: it idles then (its background workers).
        ingest_cpu_s_per_1k_chunks: { groundkit: round3((i.cpu.groundkit / i.chunks) * 1000), postgres: round3((i.cpu.postgres / i.chunks) * 1000) },
        bm25_queries: timed.bm25.steady ? STEADY_QUERIES : 0,
        bm25_p50_ms: roundOrNull(timed.bm25.steady?.[kind].p50),
        bm25_p99_ms: roundOrNull(timed.bm25.steady?.[kind].p99),
        bm25_first_queries: timed.bm25.first ? timed.queries : 0,
        bm25_first_p50_ms: roundOrNull(timed.bm25.first?.[kind].p50),
        bm25_first_p99_ms: roundOrNull(timed.bm25.first?.[kind].p99),
      };
    }
    const result = {
      name: values.name,
      created_at: new Date().toISOString(),
      command: `npm run bench -- --store postgres ${argv.join(" ")}`.trim(),
      machine: `${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, node ${process.version}; shared with other work`,
      cpu_lock: lockFile ? "ingest under the shared lock, timed phases under the exclusive lock" : "none",
      postgres_settings: serverSettings,
      load_average: { at_ingest: loadAtIngest, at_timed_start: timed.loadAtStart, at_end: timed.loadAtEnd },
      corpus: { documents: corpus.documents, chunks: corpus.chunks, bytes: corpus.bytes, increment_documents: more.documents },
      bridge: timed.bridge,
      stores,
      load: timed.loads,
      load_errors: timed.loads.reduce((n, l) => n + l.errors, 0),
    };
    mkdirSync(values.out!, { recursive: true });
    writeFileSync(join(values.out!, `${values.name}.json`), JSON.stringify(result, null, 2) + "\n");
    const md = [
      `# PostgreSQL store beside SQLite: ${corpus.chunks.toLocaleString("en")} chunks (${corpus.documents.toLocaleString("en")} documents)`,
      "",
      `${result.created_at}; ${result.machine}. Load average (1/5/15 min) ${loadAtIngest} at ingest, ${timed.loadAtStart} when the timed phases started, ${timed.loadAtEnd} at the end; ${result.cpu_lock}. Command: \`${result.command}\`.`,
      "",
      `PostgreSQL server: ${Object.entries(serverSettings)
        .map(([k, v]) => `${k} = ${v}`)
        .join(", ")} (otherwise initdb's defaults).`,
      "",
      "| store | chunks | ingest s | ingest chunks/s | ingest CPU s / 1,000 chunks: groundkit | postgres | BM25 p50 ms | BM25 p99 ms | first after open: BM25 p50 ms | p99 ms |",
      "|---|---|---|---|---|---|---|---|---|---|",
      ...Object.entries(stores).map(
        ([k, v]) =>
          `| ${k} | ${v.chunks} | ${v.ingest_s} | ${v.ingest_chunks_per_s} | ${v.ingest_cpu_s_per_1k_chunks.groundkit} | ${v.ingest_cpu_s_per_1k_chunks.postgres} | ${v.bm25_p50_ms} | ${v.bm25_p99_ms} | ${v.bm25_first_p50_ms} | ${v.bm25_first_p99_ms} |`,
      ),
      "",
      `BM25: top 10 in this process, the benchmark mix (short, 12-term, pasted paragraph), each query run on both stores back to back, the order alternating (a shared VM's speed drifts; this puts the drift on both). ` +
        `BM25 p50/p99: steady state, ${STEADY_QUERIES} queries not seen before, after 1,000 others. First after open: the ${timed.queries} queries the served phases use, after 20 warm-up queries in a freshly opened collection (compiling and filling caches weigh on these).`,
      "",
      `Served: POST /v1/search (same mix, top 10) from ${clients} closed-loop clients spread over the servers, ${seconds} s after a 1 s warm-up (the ingesting phase runs until the ingest ends). CPU: utime + stime from /proc of the server processes (with their children) and of the PostgreSQL cluster (postmaster, backends, reaped ones included; the replica's too in the replica phase) over the timed run, per 1,000 requests; predicted req/s = cores ÷ (groundkit + postgres CPU s per request), a CPU-bound ceiling with every core serving and the load generator elsewhere.`,
      "",
      "| phase | servers | clients | s | ok requests | errors | req/s | p50 ms | p99 ms | load avg after | CPU s / 1,000 req: groundkit | postgres | load generator | predicted req/s (" +
        PREDICT_CORES.map((c) => `${c} cores`).join(" / ") +
        ") | ingest during the load |",
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
      ...timed.loads.map(
        (l) =>
          `| ${l.phase} | ${l.servers} | ${l.clients} | ${l.seconds} | ${l.requests_ok} | ${l.errors} | ${l.requests_per_s} | ${l.p50_ms} | ${l.p99_ms} | ${l.load_average ?? ""} | ${
            l.cpu_s_per_1k?.groundkit ?? ""
          } | ${l.cpu_s_per_1k?.postgres ?? ""} | ${l.cpu_s_per_1k?.client ?? ""} | ${Object.values(l.predicted_rps ?? {}).join(" / ")} | ${
            l.ingest ? `HTTP ${l.ingest.status}: ${l.ingest.indexed} documents, ${l.ingest.chunks_written} chunks, ${l.ingest.failed} failed, ${l.ingest.seconds} s` : ""
          } |`,
      ),
      ...timed.loads.flatMap((l) =>
        l.replica
          ? [
              "",
              `${l.phase}: the replica is a streaming hot standby of the database (pg_basebackup after the ingesting phase); its PostgreSQL CPU s / 1,000 requests: primary ${l.replica.postgres_cpu_s_per_1k.primary}, replica ${l.replica.postgres_cpu_s_per_1k.replica}; each server's /readyz after the run: ${l.replica.readyz.join("; ")}.`,
            ]
          : [],
      ),
      "",
      `Bridge, SELECT 1 × ${timed.bridge.calls}: the store's pool p50 ${timed.bridge.sync_select1_p50_us} µs, p99 ${timed.bridge.sync_select1_p99_us} µs; ` +
        `async pg client p50 ${timed.bridge.async_select1_p50_us} µs, p99 ${timed.bridge.async_select1_p99_us} µs.`,
      "",
    ].join("\n");
    writeFileSync(join(values.out!, `${values.name}.md`), md);
    process.stdout.write(md);
    if (result.load_errors > 0) process.exitCode = 1;
  } finally {
    await stopServers();
    rmSync(scratch, { recursive: true, force: true });
    await replica?.stop();
    await pg.stop();
  }
}

/** What a server's /readyz says of its replica: `serving, behind by N bytes`, or why reads do not go to it. */
async function replicaReadiness(url: string): Promise<string> {
  const res = await fetch(`${url}/readyz`);
  const body = (await res.json()) as { store?: { replicas?: Array<{ ok: boolean; reason?: string; passed_over?: string; replay_lag_bytes?: number }> } };
  const r = body.store?.replicas?.[0];
  if (r === undefined) return "no replica in /readyz";
  if (!r.ok) return `not serving reads: ${r.reason ?? "unavailable"}`;
  if (r.passed_over) return `passed over: ${r.passed_over}`;
  return `serving, behind by ${r.replay_lag_bytes ?? "?"} bytes`;
}
