/**
 * The analyzer's word cache must not keep the texts its words came from: a
 * long word sliced out of a text is, in V8, a view of the whole text, so
 * caching it as it is kept every text alive that first showed one (tens of MB
 * at ingest, and every search hit's text promoted by the young-generation
 * collector). Measured in a child process that can force a full collection.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..");

const SCRIPT = `
const { analyzeForIndex, analyzeWithOffsets } = await import(process.argv[1]);
globalThis.gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 2000; i++) {
  // About 20 KB of text, and one word of 14+ letters that no other text holds.
  const unique = "zq" + i.toString(36).replace(/[0-9]/g, (d) => "abcdefghij"[Number(d)]) + "wordsmithing";
  const text = ("Lorem ipsum dolor sit amet, consectetur adipiscing elit " + i + ". ").repeat(330) + unique;
  if (i % 2 === 0) analyzeForIndex(text);
  else analyzeWithOffsets(text);
}
globalThis.gc();
console.log(JSON.stringify({ retainedBytes: process.memoryUsage().heapUsed - before }));
`;

it("keeps no analyzed text alive through the words it cached", () => {
  const analyzer = pathToFileURL(join(ROOT, "src/analysis/analyzer.ts")).href;
  const register = pathToFileURL(join(ROOT, "scripts/ts-source-register.mjs")).href;
  const res = spawnSync(process.execPath, ["--expose-gc", "--import", register, "--input-type=module", "-e", SCRIPT, analyzer], {
    encoding: "utf8",
    timeout: 60_000,
  });
  expect(res.stderr).toBe("");
  const { retainedBytes } = JSON.parse(res.stdout.trim().split("\n").at(-1)!) as { retainedBytes: number };
  // 2,000 cached words and their stems take well under 1 MiB; the 2,000 texts (40 MB) must all be gone.
  expect(retainedBytes).toBeLessThan(4 * 1024 * 1024);
});
