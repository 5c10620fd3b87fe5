/**
 * Deterministic generated Markdown corpora for tests (and benchmarks).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { mulberry32 } from "../../src/core/random.js";

export { mulberry32 };

const WORDS = (
  "index citation source verify chunk offset passage retrieval ranking query engine folder markdown heading " +
  "backup restore cluster replica latency throughput cache shard vector lexical token stemming snapshot extract " +
  "pipeline schema migration transaction journal checkpoint rollback commit replay consensus leader follower"
).split(" ");


/** One generated Markdown document; `version` changes its body text. */
export function generatedDoc(i: number, version: number, rand = mulberry32(i * 7919 + version)): string {
  const lines = [`# Document ${i}`, ""];
  const sections = 1 + Math.floor(rand() * 3);
  for (let s = 0; s < sections; s++) {
    lines.push(`## Section ${s} v${version}`, "");
    const words = 40 + Math.floor(rand() * 120);
    const para: string[] = [];
    for (let w = 0; w < words; w++) para.push(WORDS[Math.floor(rand() * WORDS.length)]!);
    para.push(`marker${i}x${version}`);
    lines.push(para.join(" ") + ".", "");
  }
  return lines.join("\n");
}

/** Write `count` generated documents into `dir` (in subfolders of 100). */
export function writeCorpus(dir: string, count: number, version = 1): void {
  for (let i = 0; i < count; i++) {
    const sub = join(dir, `part${Math.floor(i / 100)}`);
    mkdirSync(sub, { recursive: true });
    writeFileSync(join(sub, `doc${i}.md`), generatedDoc(i, version));
  }
}
