#!/usr/bin/env node
/**
 * In-process BM25 latency of two builds, compared query by query in ONE process,
 * so a machine whose speed drifts (a shared VM, other work) weighs on both alike.
 * Each build searches its own collection of the same corpus; for every query the
 * two run back to back, the order alternating. Prints per class the p50/p99 of
 * every timed search, the sum over queries of each query's best time (the CPU a
 * search costs without garbage-collection pauses), and the median over queries
 * of B's best / A's best.
 *
 *   git archive <rev> | tar -x -C /tmp/a && cd /tmp/a && ln -s <repo>/node_modules . && npm run build && npm run tools:build
 *   node scripts/bm25-paired.mjs --corpus /tmp/corpus /tmp/a /tmp/b [--passes 6]
 *
 * The corpus is the bench's 5,000 generated documents (written on first use);
 * each build's collection is `<build>/.bm25-paired-index`, ingested on first use.
 * Queries: 2,000 short, 400 12-term, 300 pasted paragraphs (bench/queries.ts), top 10.
 *
 * With --cold, the bench's query stage instead (`npm run bench`'s 300 short, 60
 * 12-term, 40 paragraphs): per class 20 warm-up queries, then every other query
 * searched once on each build, so each is seen for the first time (postings,
 * words and rows not yet cached); the ratio is then the median of B / A per query.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { performance } from "node:perf_hooks";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { corpus: { type: "string" }, passes: { type: "string", default: "6" }, cold: { type: "boolean", default: false } },
});
if (positionals.length !== 2 || !values.corpus) {
  console.error("usage: node scripts/bm25-paired.mjs --corpus DIR <build A> <build B> [--passes N | --cold]");
  process.exit(2);
}
const [buildA, buildB] = positionals.map((p) => resolve(p));
const corpus = resolve(values.corpus);
const passes = Number(values.passes);
if (!Number.isInteger(passes) || passes < 2) {
  console.error("--passes must be an integer >= 2 (the first pass is warm-up)");
  process.exit(2);
}

const bench = (build, file) => import(join(build, ".tools-build", "bench", file));
const { generateDocument, documentPath, vocabulary } = await bench(buildA, "corpus.js");
const { buildQueries } = await bench(buildA, "queries.js");
const DOCUMENTS = 5000;

if (!existsSync(corpus)) {
  const vocab = vocabulary();
  for (let i = 0; i < DOCUMENTS; i++) {
    const path = documentPath(corpus, i);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, generateDocument(i, vocab));
  }
}

async function openBuild(build) {
  const { openCollection } = await import(join(build, "dist", "collection", "index.js")).catch(() => import(join(build, "dist", "collection.js")));
  const indexDir = join(build, ".bm25-paired-index");
  const fresh = !existsSync(indexDir);
  const col = await openCollection({ indexDir, collection: "default", create: true });
  if (fresh) await col.ingest([corpus]);
  return col;
}
const A = await openBuild(buildA);
const B = await openBuild(buildB);

const cold = values.cold;
const queries = cold ? buildQueries({ short: 300, long12: 60, paragraph: 40 }, DOCUMENTS) : buildQueries({ short: 2000, long12: 400, paragraph: 300 }, DOCUMENTS);
const times = { A: queries.map(() => []), B: queries.map(() => []) };
async function timed(col, text) {
  const t = performance.now();
  await col.search(text, { topK: 10 });
  return performance.now() - t;
}
/** Cold: the first 20 queries of each class warm up (untimed), as the bench's stage does; buildQueries lists the classes in turn. */
const perClass = new Map();
const warmUp = queries.map((q) => {
  perClass.set(q.cls, (perClass.get(q.cls) ?? 0) + 1);
  return cold && perClass.get(q.cls) <= 20;
});
for (let pass = 0; pass < (cold ? 1 : passes); pass++) {
  for (let i = 0; i < queries.length; i++) {
    const aFirst = (i + pass) % 2 === 0;
    const first = await timed(aFirst ? A : B, queries[i].text);
    const second = await timed(aFirst ? B : A, queries[i].text);
    if (cold ? warmUp[i] : pass === 0) continue;
    times.A[i].push(aFirst ? first : second);
    times.B[i].push(aFirst ? second : first);
  }
}
await A.close();
await B.close();

const sorted = (xs) => [...xs].sort((x, y) => x - y);
const pct = (xs, p) => sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))];
const ms = (x) => Number(x.toFixed(3));
console.log(`A = ${buildA}\nB = ${buildB}\n${cold ? "cold: each query once after 20 warm-up per class" : `${passes - 1} timed passes`}\n`);
console.log("| class | A p50 / p99 ms | B p50 / p99 ms | A sum of bests ms | B sum of bests ms | median B/A of bests |");
console.log("|---|---|---|---|---|---|");
for (const cls of ["short", "long12", "paragraph"]) {
  const idx = queries.flatMap((q, i) => (q.cls === cls && times.A[i].length > 0 ? [i] : []));
  const all = (k) => idx.flatMap((i) => times[k][i]);
  const best = (k, i) => Math.min(...times[k][i]);
  const sum = (k) => idx.reduce((s, i) => s + best(k, i), 0);
  const ratio = pct(idx.map((i) => best("B", i) / best("A", i)), 0.5);
  console.log(
    `| ${cls} | ${ms(pct(all("A"), 0.5))} / ${ms(pct(all("A"), 0.99))} | ${ms(pct(all("B"), 0.5))} / ${ms(pct(all("B"), 0.99))} | ${sum("A").toFixed(1)} | ${sum("B").toFixed(1)} | ${ratio.toFixed(3)} |`,
  );
}
