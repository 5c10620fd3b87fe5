#!/usr/bin/env node
/**
 * The bench's fresh-process stage of short BM25 queries, for several builds, one
 * new process per run, the builds alternating and their order rotating each round.
 * The stage's figures depend on how warm the process is (V8 optimizes the search
 * code during it), so a single bench run moves 5–11 %; many short runs of just this
 * stage tell builds apart (bench/results/sqlite-before-after.md, "Session 11").
 *
 *   git archive <rev> | tar -x -C /tmp/a && cd /tmp/a && ln -s <repo>/node_modules . && npm run build
 *   node scripts/fresh-stage.mjs --corpus /tmp/corpus --runs 10 /tmp/a /tmp/b
 *
 * A run does what the stage does: two full garbage collections, open the
 * collection, the first 20 of the 300 short queries untimed, then all 300 timed
 * in the stage's order. Per build it prints the medians over runs of each run's
 * p50, nearest-rank p99 (as the bench computes them) and the sum of the 300 times.
 *
 * Queries and corpus (5,000 documents, written on first use) come from this
 * checkout's `.tools-build/bench` (`npm run tools:build`); each build searches
 * its own collection `<build>/.fresh-stage-index`, ingested by that build's own
 * library on first use. `--preload MODULE` imports a module before opening (a
 * control: what loading unrelated code does to the figures).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";

const DOCUMENTS = 5000;
const COUNTS = { short: 300, long12: 60, paragraph: 40 };
const WARMUP = 20;
const tools = (file) => import(join(import.meta.dirname, "..", ".tools-build", "bench", file));

async function openBuild(build, create) {
  const lib = await import(join(build, "dist", "collection", "index.js")).catch(() => import(join(build, "dist", "collection.js")));
  return lib.openCollection({ indexDir: join(build, ".fresh-stage-index"), collection: "default", create });
}

/** One run in this process: prints the 300 timed queries' milliseconds as JSON. */
async function run(build, preload) {
  if (preload) await import(preload);
  globalThis.gc();
  globalThis.gc();
  const col = await openBuild(build, false);
  const { buildQueries } = await tools("queries.js");
  const short = buildQueries(COUNTS, DOCUMENTS)
    .filter((q) => q.cls === "short")
    .map((q) => q.text);
  for (const q of short.slice(0, WARMUP)) await col.search(q, { topK: 10, mode: "bm25" });
  const times = [];
  for (const q of [...short.slice(WARMUP), ...short.slice(0, WARMUP)]) {
    const t = performance.now();
    await col.search(q, { topK: 10, mode: "bm25" });
    times.push(performance.now() - t);
  }
  await col.close();
  console.log(JSON.stringify(times));
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

async function main() {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      corpus: { type: "string" },
      runs: { type: "string", default: "10" },
      preload: { type: "string" },
      child: { type: "boolean", default: false },
    },
  });
  if (values.child) return run(resolve(positionals[0]), values.preload);
  const runs = Number(values.runs);
  if (positionals.length === 0 || !values.corpus || !Number.isInteger(runs) || runs < 1) {
    console.error("usage: node scripts/fresh-stage.mjs --corpus DIR [--runs N] [--preload MODULE] <build> [<build> ...]");
    process.exit(2);
  }
  const corpus = resolve(values.corpus);
  if (!existsSync(corpus)) {
    const { writeCorpus } = await tools("corpus.js");
    const { DEFAULTS } = await import(join(import.meta.dirname, "..", ".tools-build", "src", "core", "config.js"));
    writeCorpus(corpus, 0, (documents) => documents >= DOCUMENTS, { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap });
  }
  let builds = positionals.map((p) => resolve(p));
  for (const build of builds) {
    if (existsSync(join(build, ".fresh-stage-index"))) continue;
    const col = await openBuild(build, true);
    await col.ingest([corpus]);
    await col.close();
  }
  // Nearest rank, as the bench computes its percentiles.
  const { percentile } = await import(join(import.meta.dirname, "..", ".tools-build", "src", "eval", "latency.js"));
  const figures = new Map(builds.map((b) => [b, []]));
  for (let round = 0; round < runs; round++) {
    for (const build of builds) {
      const args = ["--expose-gc", import.meta.filename, "--child", build, ...(values.preload ? ["--preload", values.preload] : [])];
      const r = spawnSync(process.execPath, args, { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`run of ${build} failed: ${r.stderr}`);
      const times = JSON.parse(r.stdout.trim().split("\n").at(-1));
      figures.get(build).push({ p50: percentile(times, 50), p99: percentile(times, 99), sum: times.reduce((a, b) => a + b, 0) });
    }
    builds = [...builds.slice(1), builds[0]];
  }
  console.log("build\truns\tp50 ms\tp99 ms\tsum of 300, ms");
  for (const [build, runsOf] of figures) {
    const m = (k) => median(runsOf.map((f) => f[k]));
    console.log(`${build}\t${runsOf.length}\t${m("p50").toFixed(3)}\t${m("p99").toFixed(2)}\t${m("sum").toFixed(0)}`);
  }
}

await main();
