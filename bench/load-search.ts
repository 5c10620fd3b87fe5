/**
 * `npm run bench:load [-- options]` (HELP below): a load run against
 * `POST /v1/search` of a real `grk serve --workers N` at 1, 16 and 64
 * concurrent clients; reports req/s, p50/p95/p99, errors and the load average
 * at the start, and writes bench/results/load.json + load.md. For profiling:
 * `--index`, `--node-arg`, `--cli` (a before/after comparison), `--no-write`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Pool } from "undici";
import { openCollection } from "../src/collection/index.js";
import { DEFAULTS } from "../src/core/config.js";
import { integerOption, parseOptions, usage } from "./cli-options.js";
import { writeCorpus } from "./corpus.js";
import { summarize, type Latency } from "./measure.js";
import { buildQueries } from "./queries.js";

const BUILT_CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");
const LEVELS = "1,16,64";

const HELP = `usage: npm run bench:load [-- options]
  --seconds S          timed seconds per level, after a 1 s warm-up (default 10)
  --documents N        generated documents in the index (default 5000)
  --levels a,b,…       concurrent clients, one level each (default ${LEVELS})
  --workers N          grk serve --workers (default ${availableParallelism()}: one per core)
  --index DIR          keep (or reuse) the built index there instead of a scratch one
  --node-arg FLAG      a flag for the server's node, e.g. --node-arg=--cpu-prof (repeatable)
  --cli PATH           serve another build's dist/cli/main.js (default this build's)
  --no-write           leave the result files alone
  --out DIR            results folder (default bench/results)
`;

interface LevelResult {
  clients: number;
  seconds: number;
  requests: number;
  requests_per_s: number;
  errors: number;
  latency: Latency;
}

async function startServer(cli: string, indexDir: string, workers: number, nodeArgs: string[]): Promise<{ url: string; child: ChildProcess }> {
  const args = [...nodeArgs, cli, "serve", "--port", "0", "--index-dir", indexDir, "--log-format", "json", ...(workers > 1 ? ["--workers", String(workers)] : [])];
  const child = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"] });
  const url = await new Promise<string>((ok, fail) => {
    let err = "";
    let listening = false;
    child.stderr!.on("data", (d: Buffer) => {
      // After startup the access log is drained unread: scanning it would load the cores the server runs on.
      if (listening) return;
      err += d.toString();
      const m = /listening on (http:\/\/[^\s"]+)/.exec(err);
      if (m) {
        listening = true;
        ok(m[1]!);
      }
    });
    child.on("exit", (code) => fail(new Error(`grk serve exited ${code}: ${err}`)));
  });
  return { url, child };
}

async function level(url: string, clients: number, seconds: number, queries: string[]): Promise<LevelResult> {
  const pool = new Pool(url, { connections: clients, pipelining: 1 });
  const samples: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + seconds * 1000;
  const worker = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const query = queries[next++ % queries.length]!;
      const t0 = performance.now();
      try {
        const res = await pool.request({
          path: "/v1/search",
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query, top_k: 10 }),
        });
        await res.body.text();
        if (res.statusCode !== 200) errors++;
        else samples.push(performance.now() - t0);
      } catch {
        errors++;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, worker));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return {
    clients,
    seconds: Number(elapsed.toFixed(2)),
    requests: samples.length + errors,
    requests_per_s: Number((samples.length / elapsed).toFixed(1)),
    errors,
    latency: summarize(samples.length ? samples : [0], 0),
  };
}

async function main(): Promise<void> {
  const { values } = parseOptions({
    options: {
      seconds: { type: "string", default: "10" },
      documents: { type: "string", default: "5000" },
      out: { type: "string", default: "bench/results" },
      levels: { type: "string", default: LEVELS },
      // One serve process per core by default: the server's event loop is the limit (docs/serving.md, "Load").
      workers: { type: "string", default: String(availableParallelism()) },
      index: { type: "string" },
      "node-arg": { type: "string", multiple: true, default: [] },
      "no-write": { type: "boolean", default: false },
      cli: { type: "string", default: BUILT_CLI },
    },
    strict: true,
  }, HELP);
  const seconds = Number(values.seconds);
  if (!(seconds > 0 && Number.isFinite(seconds))) usage(`--seconds must be a positive number, not '${values.seconds}'`);
  const documents = integerOption("documents", values.documents!);
  const workers = integerOption("workers", values.workers!);
  const levels = values.levels!.split(",").map(Number);
  if (!levels.every((n) => Number.isInteger(n) && n > 0)) usage(`--levels takes positive integers separated by commas, not '${values.levels}'`);
  const scratch = mkdtempSync(join(tmpdir(), "grk-load-"));
  const indexDir = values.index ? resolve(values.index) : join(scratch, "index");
  let server: { url: string; child: ChildProcess } | undefined;
  try {
    if (!existsSync(indexDir)) {
      const docs = join(scratch, "docs");
      mkdirSync(docs);
      writeCorpus(docs, 0, (d) => d >= documents, { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap });
      const col = await openCollection({ indexDir, create: true });
      await col.ingest([docs]);
      await col.close();
    }
    const queries = buildQueries({ short: 200, long12: 40, paragraph: 20 }, documents).map((q) => q.text);
    const load = loadavg().map((x) => Number(x.toFixed(2)));
    process.stderr.write(`load average at start: ${load.join(" ")} (${availableParallelism()} cores)\n`);
    server = await startServer(resolve(values.cli!), indexDir, workers, values["node-arg"]!);
    const results: LevelResult[] = [];
    for (const clients of levels) {
      await level(server.url, clients, 1, queries); // warm-up
      results.push(await level(server.url, clients, seconds, queries));
    }
    const report = {
      name: "load",
      created_at: new Date().toISOString(),
      documents,
      seconds_per_level: seconds,
      workers,
      cores: availableParallelism(),
      load_average_at_start: load,
      node: process.version,
      results,
    };
    const md = [
      "# Load: POST /v1/search",
      "",
      `${documents} generated documents; ${seconds} s per level after a 1 s warm-up; server \`grk serve --workers ${workers}\` in its own process on 127.0.0.1, the load generator on the same ${availableParallelism()} cores; query mix: short, 12-term and paragraph queries, top 10. Load average at start: ${load.join(", ")}.`,
      "",
      "| clients | requests | req/s | errors | p50 ms | p95 ms | p99 ms |",
      "|---|---|---|---|---|---|---|",
      ...results.map(
        (r) => `| ${r.clients} | ${r.requests} | ${r.requests_per_s} | ${r.errors} | ${r.latency.p50_ms} | ${r.latency.p95_ms} | ${r.latency.p99_ms} |`,
      ),
      "",
    ].join("\n");
    if (!values["no-write"]) {
      mkdirSync(values.out!, { recursive: true });
      writeFileSync(join(values.out!, "load.json"), JSON.stringify(report, null, 2) + "\n");
      writeFileSync(join(values.out!, "load.md"), md);
    }
    process.stdout.write(md);
    if (results.some((r) => r.errors > 0)) process.exitCode = 1;
  } finally {
    if (server) {
      const exited = new Promise((ok) => server!.child.once("exit", ok));
      server.child.kill("SIGTERM");
      await exited; // a --cpu-prof server writes its profile on the way out
    }
    rmSync(scratch, { recursive: true, force: true });
  }
}

await main();
