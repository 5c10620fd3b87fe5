#!/usr/bin/env node
/**
 * How long an ingest holds the event loop of the process it runs in: what a
 * `grk serve` sees while its REST/MCP ingest tool (or a single-process `--watch`)
 * writes. SQLite's writes are synchronous, so batches, segment builds and segment
 * merges each hold the loop for their whole length (KNOWN_LIMITATIONS).
 *
 *   npm run build && npm run tools:build
 *   node scripts/ingest-loop-stall.mjs --chunks 100000 [--build DIR]
 *
 * Writes the bench's generated documents (about `--chunks` chunks) to a temporary
 * folder, ingests them in this process into a new collection with the library of
 * `--build` (default: this checkout's `dist/`), and prints the six longest gaps
 * between turns of a 5 ms timer, with when each ended. Everything is removed after.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { clearInterval, setInterval } from "node:timers";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { chunks: { type: "string", default: "100000" }, build: { type: "string" } } });
const chunks = Number(values.chunks);
if (!Number.isInteger(chunks) || chunks < 1) {
  console.error("usage: node scripts/ingest-loop-stall.mjs [--chunks N] [--build DIR]");
  process.exit(2);
}
const repo = join(import.meta.dirname, "..");
const build = resolve(values.build ?? repo);
const { writeCorpus } = await import(join(repo, ".tools-build", "bench", "corpus.js"));
const { DEFAULTS } = await import(join(repo, ".tools-build", "src", "core", "config.js"));
const lib = await import(join(build, "dist", "collection", "index.js")).catch(() => import(join(build, "dist", "collection.js")));

const work = mkdtempSync(join(tmpdir(), "grk-loop-stall-"));
try {
  const docs = join(work, "docs");
  writeCorpus(docs, 0, (_documents, written) => written >= chunks, { chunkSize: DEFAULTS.chunkSize, chunkOverlap: DEFAULTS.chunkOverlap });
  const col = await lib.openCollection({ indexDir: join(work, "index"), collection: "default", create: true });
  const gaps = [];
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    gaps.push({ ms: now - last, at: now });
    last = now;
  }, 5);
  const started = performance.now();
  const summary = await col.ingest([docs]);
  const seconds = (performance.now() - started) / 1000;
  clearInterval(timer);
  await col.close();
  gaps.sort((a, b) => b.ms - a.ms);
  console.log(`ingested ${summary.indexed} documents in ${seconds.toFixed(1)} s; longest event-loop gaps:`);
  for (const g of gaps.slice(0, 6)) console.log(`  ${g.ms.toFixed(0).padStart(6)} ms, ending ${((g.at - started) / 1000).toFixed(1)} s in`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
