/**
 * `npm run soak -- [--seconds N] [--clients C] [--seed S] [--json] [--out FILE]`
 *
 * Concurrency soak: `grk serve` (the real CLI, REST API on 127.0.0.1) answers
 * C clients searching through `POST /v1/search` for N seconds while the
 * collection is ingested and re-ingested with changes, alternately by a
 * separate `grk ingest` process and by the server's own ingest route. Every
 * answer must be a 200 with no `database is locked` anywhere, and consistent:
 * every hit is a chunk a clean run of some version of its document produces
 * (text hashing to its citation's hash), and all hits of one document in one
 * answer come from the same version — never a half-replaced document.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { Agent, request } from "undici";
import { cliPath } from "./helper-script.js";
import { sha256Hex } from "./oracle.js";
import { buildReference, ingestClean, type CorpusEnv } from "./reference-index.js";
import { mixSeed, Rng } from "./rng.js";
import { buildTortureCorpus, isUrlDoc, placeCorpus, sourceOf, VERSIONS, type CorpusSize } from "./torture-corpus.js";
import { PageServer } from "./world.js";
import { emitReport, runIfMain } from "./tool-cli.js";

/** Options of {@link runSoak}. */
export interface SoakOptions {
  seconds: number;
  clients: number;
  seed: number;
  corpus?: CorpusSize | undefined;
  tmp?: string | undefined;
  /** Share of searches that also ask for verification (default 1/8). */
  verifyShare?: number | undefined;
}

/** The soak's figures (the shape written by `--json` / `--out`). */
export interface SoakReport {
  tool: "soak";
  schema_version: 1;
  seed: number;
  seconds: number;
  clients: number;
  started_at: string;
  duration_ms: number;
  node: string;
  platform: string;
  corpus: { documents: number; bytes: number };
  requests: number;
  /** Requests started while an ingest was in flight. */
  requests_during_ingest: number;
  requests_per_second: number;
  latency_ms: { p50: number; p95: number; p99: number; max: number };
  /** Searches without `verify` only, by what was writing when they started: nothing, a `grk ingest` process, the server's own ingest. */
  by_writer: Record<"none" | "cli" | "rest", { requests: number; p50: number; p95: number; p99: number }>;
  /** Searches with `verify` (every hit re-read from its source; PDFs re-extracted). */
  verify_latency_ms: { p50: number; p95: number; p99: number };
  hits_checked: number;
  verified_requests: number;
  ingests: { cli: number; rest: number; failed: number; changed_documents: number; ms_in_flight: number };
  errors: number;
  database_locked: number;
  inconsistent: number;
  error_samples: string[];
  ok: boolean;
}

interface Hit {
  chunk_id: string;
  text: string;
  citation: { source: string; text_hash: string };
  verification?: { verdict: string; detail: string };
}

/** Start `grk serve --port 0` and wait for its "listening on" line. */
async function startServer(env: CorpusEnv, indexDir: string, token: string): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(
    process.execPath,
    [
      cliPath(),
      "serve",
      "--port",
      "0",
      "--index-dir",
      indexDir,
      "--collection",
      env.collection,
      "--allowed-root",
      env.docsDir,
      "--allow-private-network",
      "--max-concurrency",
      "1024",
      "--request-timeout",
      "120",
    ],
    { cwd: env.work, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, GROUNDKIT_API_TOKEN: token } },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let seen = "";
    const rl = createInterface({ input: child.stderr! });
    rl.on("line", (line) => {
      seen += line + "\n";
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`grk serve exited (${code}): ${seen}`)));
  });
  return { child, url };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
}

/** Run the soak. */
export async function runSoak(opts: SoakOptions): Promise<SoakReport> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const rng = new Rng(mixSeed(opts.seed, 0x50a4));
  const work = mkdtempSync(join(opts.tmp ?? tmpdir(), "grk-soak-"));
  const pages = await PageServer.start();
  const docs = await buildTortureCorpus(opts.corpus ?? { small: 80, big: 1, bigBytes: 400_000 });
  const env: CorpusEnv = { work, docsDir: join(work, "docs"), server: pages, docs, collection: "soak", dense: false };
  const indexDir = join(work, "index");
  const token = randomBytes(24).toString("hex");
  const report: SoakReport = {
    tool: "soak",
    schema_version: 1,
    seed: opts.seed,
    seconds: opts.seconds,
    clients: opts.clients,
    started_at: startedAt,
    duration_ms: 0,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    corpus: { documents: docs.length, bytes: docs.reduce((n, d) => n + d.versions.get(1)!.length, 0) },
    requests: 0,
    requests_during_ingest: 0,
    requests_per_second: 0,
    latency_ms: { p50: 0, p95: 0, p99: 0, max: 0 },
    by_writer: {
      none: { requests: 0, p50: 0, p95: 0, p99: 0 },
      cli: { requests: 0, p50: 0, p95: 0, p99: 0 },
      rest: { requests: 0, p50: 0, p95: 0, p99: 0 },
    },
    verify_latency_ms: { p50: 0, p95: 0, p99: 0 },
    hits_checked: 0,
    verified_requests: 0,
    ingests: { cli: 0, rest: 0, failed: 0, changed_documents: 0, ms_in_flight: 0 },
    errors: 0,
    database_locked: 0,
    inconsistent: 0,
    error_samples: [],
    ok: false,
  };
  let server: { child: ChildProcess; url: string } | undefined;
  const agent = new Agent({ connections: opts.clients * 2, keepAliveTimeout: 30_000 });
  try {
    // Every chunk a clean run of any version produces: chunk id -> "source@version" set.
    const ref = await buildReference(env);
    const chunkVersions = new Map<string, Set<string>>();
    for (const [source, byVersion] of ref) {
      for (const [v, state] of byVersion) {
        for (const c of state.chunks) {
          const id = c.split(":")[3]!;
          if (!chunkVersions.has(id)) chunkVersions.set(id, new Set());
          chunkVersions.get(id)!.add(`${source}@${v}`);
        }
      }
    }
    let current = new Map(docs.map((d) => [d.key, 1]));
    placeCorpus(docs, current, env.docsDir, pages);
    const first = await ingestClean(env, indexDir);
    if (first.code !== 0) throw new Error(`the initial ingest failed: ${first.stderr}`);
    server = await startServer(env, indexDir, token);

    // Queries: words of the corpus, and version markers that hit one document at one version.
    const vocabulary = [...new Set(Buffer.from(docs[0]!.versions.get(1)!).toString("utf8").match(/[a-z]{4,}/g) ?? [])];
    const markers = docs.flatMap((_, i) => VERSIONS.map((v) => `marker${i}x${v}`));
    const latencies: number[] = [];
    const byWriter: Record<"none" | "cli" | "rest", number[]> = { none: [], cli: [], rest: [] };
    const verifyLatencies: number[] = [];
    let writing: "none" | "cli" | "rest" = "none";
    let ingesting = false;
    const deadline = performance.now() + opts.seconds * 1000;
    const fail = (message: string): void => {
      report.errors++;
      if (/database is locked|SQLITE_BUSY|STORE_BUSY/i.test(message)) report.database_locked++;
      if (report.error_samples.length < 10) report.error_samples.push(message.slice(0, 500));
    };

    const client = async (id: number): Promise<void> => {
      const r = new Rng(mixSeed(opts.seed, id));
      while (performance.now() < deadline) {
        const query = r.chance(0.3) ? r.pick(markers) : Array.from({ length: r.int(1, 4) }, () => r.pick(vocabulary)).join(" ");
        const verify = r.chance(opts.verifyShare ?? 1 / 8);
        const during = ingesting;
        const writer = writing;
        const started = performance.now();
        let status: number;
        let body: string;
        try {
          const res = await request(`${server!.url}/v1/search`, {
            method: "POST",
            dispatcher: agent,
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ query, top_k: 10, ...(verify ? { verify: true } : {}) }),
          });
          status = res.statusCode;
          body = await res.body.text();
        } catch (err) {
          fail(`request failed: ${(err as Error).message}`);
          continue;
        }
        latencies.push(performance.now() - started);
        (verify ? verifyLatencies : byWriter[writer]).push(performance.now() - started);
        report.requests++;
        if (during || ingesting) report.requests_during_ingest++;
        if (verify) report.verified_requests++;
        if (/database is locked|SQLITE_BUSY/i.test(body)) {
          fail(`HTTP ${status} mentioning a locked database: ${body}`);
          continue;
        }
        if (status !== 200) {
          fail(`HTTP ${status}: ${body}`);
          continue;
        }
        let hits: Hit[];
        try {
          hits = (JSON.parse(body) as { results: Hit[] }).results;
        } catch {
          fail(`unparseable body: ${body}`);
          continue;
        }
        checkConsistency(hits, chunkVersions, report, verify);
      }
    };

    const writer = async (): Promise<void> => {
      let n = 0;
      // An ingest and a re-ingest with changes at least, then as many as fit.
      while (n < 2 || performance.now() < deadline - 500) {
        const next = new Map(current);
        for (const d of docs) if (rng.chance(0.4)) next.set(d.key, rng.pick(VERSIONS.filter((v) => v !== current.get(d.key))));
        report.ingests.changed_documents += docs.filter((d) => next.get(d.key) !== current.get(d.key)).length;
        placeCorpus(docs, next, env.docsDir, pages);
        current = next;
        const started = performance.now();
        ingesting = true;
        writing = n % 2 === 0 ? "cli" : "rest";
        try {
          if (n % 2 === 0) {
            const res = await ingestClean(env, indexDir);
            report.ingests.cli++;
            if (res.code !== 0) {
              report.ingests.failed++;
              fail(`grk ingest failed (${res.code}): ${res.stderr.trim().split("\n").pop()}`);
            }
          } else {
            const inputs = [env.docsDir, ...docs.filter(isUrlDoc).map((d) => sourceOf(d, env.docsDir, pages))];
            const res = await request(`${server!.url}/v1/collections/${env.collection}/ingest`, {
              method: "POST",
              dispatcher: agent,
              headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
              body: JSON.stringify({ inputs }),
            });
            const body = await res.body.text();
            report.ingests.rest++;
            const failed = res.statusCode !== 200 || (JSON.parse(body) as { failed?: unknown[] }).failed?.length;
            if (failed) {
              report.ingests.failed++;
              fail(`REST ingest: HTTP ${res.statusCode}: ${body.slice(0, 300)}`);
            }
          }
        } finally {
          ingesting = false;
          writing = "none";
          report.ingests.ms_in_flight += performance.now() - started;
        }
        n++;
        // A short quiet spell between ingests gives a baseline to compare the in-ingest latency with.
        if (performance.now() < deadline - 1500) await new Promise((r) => setTimeout(r, 1000));
      }
    };

    await Promise.all([writer(), ...Array.from({ length: opts.clients }, (_, i) => client(i))]);
    latencies.sort((a, b) => a - b);
    report.latency_ms = { p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), max: percentile(latencies, 100) };
    for (const w of ["none", "cli", "rest"] as const) {
      const l = byWriter[w].sort((a, b) => a - b);
      report.by_writer[w] = { requests: l.length, p50: percentile(l, 50), p95: percentile(l, 95), p99: percentile(l, 99) };
    }
    verifyLatencies.sort((a, b) => a - b);
    report.verify_latency_ms = { p50: percentile(verifyLatencies, 50), p95: percentile(verifyLatencies, 95), p99: percentile(verifyLatencies, 99) };
  } finally {
    await agent.close();
    if (server) {
      server.child.kill("SIGTERM");
      await new Promise((r) => server!.child.once("exit", r));
    }
    await pages.close();
    rmSync(work, { recursive: true, force: true });
  }
  report.duration_ms = Math.round(performance.now() - t0);
  report.ingests.ms_in_flight = Math.round(report.ingests.ms_in_flight);
  report.requests_per_second = Math.round(report.requests / opts.seconds);
  report.ok =
    report.errors === 0 &&
    report.database_locked === 0 &&
    report.inconsistent === 0 &&
    report.ingests.cli + report.ingests.rest >= 2 &&
    report.requests_during_ingest > 0;
  return report;
}

/** Each hit a chunk of some clean version; all hits of one document from one common version. */
function checkConsistency(hits: Hit[], chunkVersions: Map<string, Set<string>>, report: SoakReport, verify: boolean): void {
  const bySource = new Map<string, Set<string> | undefined>();
  for (const hit of hits) {
    report.hits_checked++;
    const problem = (what: string): void => {
      report.inconsistent++;
      if (report.error_samples.length < 10) report.error_samples.push(`${what}: ${hit.citation.source} ${hit.chunk_id}`);
    };
    if (sha256Hex(hit.text) !== hit.citation.text_hash) problem("a hit's text does not match its citation hash");
    const versions = chunkVersions.get(hit.chunk_id);
    if (!versions) {
      problem("a hit that no clean run of any version produces");
      continue;
    }
    const mine = new Set([...versions].filter((sv) => sv.startsWith(`${hit.citation.source}@`)));
    const prev = bySource.get(hit.citation.source);
    const common = prev ? new Set([...prev].filter((sv) => mine.has(sv))) : mine;
    if (common.size === 0) problem("hits of one document from different versions in one answer");
    bySource.set(hit.citation.source, common);
    if (verify && (!hit.verification || !hit.verification.detail)) problem("a verification without a verdict and detail");
  }
}

function parseArgs(argv: string[]): { seconds: number; clients: number; seed: number; json: boolean; out?: string; tmp?: string } {
  const args: { seconds: number; clients: number; seed: number; json: boolean; out?: string; tmp?: string } = { seconds: 30, clients: 64, seed: 1, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === "--seconds") args.seconds = int(a, value(), 1);
    else if (a === "--clients") args.clients = int(a, value(), 1);
    else if (a === "--seed") args.seed = int(a, value(), 0);
    else if (a === "--json") args.json = true;
    else if (a === "--out") args.out = value();
    else if (a === "--tmp") args.tmp = value();
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function int(name: string, v: string, min: number): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) usage(`${name} needs an integer >= ${min}`);
  return n;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: soak [--seconds N] [--clients C] [--seed S] [--json] [--out FILE] [--tmp DIR]\n`);
  process.exit(2);
}

/** Human-readable summary. */
export function renderSoakText(r: SoakReport, command: string): string {
  return [
    `concurrency soak: ${r.clients} clients for ${r.seconds} s against grk serve, seed ${r.seed}`,
    `requests: ${r.requests} (${r.requests_per_second}/s), ${r.requests_during_ingest} while an ingest was running, ${r.verified_requests} with verify`,
    `latency: p50 ${r.latency_ms.p50} ms, p95 ${r.latency_ms.p95} ms, p99 ${r.latency_ms.p99} ms, max ${r.latency_ms.max} ms`,
    ...(["none", "cli", "rest"] as const).map(
      (w) => `  plain searches while ${{ none: "no ingest ran", cli: "grk ingest ran", rest: "the server ingested" }[w]}: ${r.by_writer[w].requests} requests, p50 ${r.by_writer[w].p50} ms, p95 ${r.by_writer[w].p95} ms, p99 ${r.by_writer[w].p99} ms`,
    ),
    `  searches with verify: p50 ${r.verify_latency_ms.p50} ms, p95 ${r.verify_latency_ms.p95} ms, p99 ${r.verify_latency_ms.p99} ms`,
    `ingests: ${r.ingests.cli} by grk ingest, ${r.ingests.rest} through POST /v1/collections/{c}/ingest (${r.ingests.changed_documents} document versions changed, ${r.ingests.failed} failed, ${(r.ingests.ms_in_flight / 1000).toFixed(1)} s in flight)`,
    `hits checked: ${r.hits_checked}; inconsistent: ${r.inconsistent}`,
    `errors: ${r.errors}; database is locked: ${r.database_locked}`,
    ...r.error_samples.map((e) => `  ${e}`),
    "",
    `command: ${command}`,
  ].join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const command = `npm run soak -- ${process.argv.slice(2).join(" ")}`.trim();
  const report = await runSoak({ seconds: args.seconds, clients: args.clients, seed: args.seed, tmp: args.tmp });
  emitReport(report, command, args, renderSoakText);
}

runIfMain(import.meta.url, "soak", main);
