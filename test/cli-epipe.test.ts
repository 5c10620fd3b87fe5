/**
 * Regression: `grk search … | head` closed the pipe early and the CLI printed
 * an unhandled EPIPE stack trace. A reader that stops early is not an error.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-epipe-");
  mkdirSync(join(work.dir, "docs"));
  for (let i = 0; i < 60; i++) {
    writeFileSync(join(work.dir, "docs", `d${i}.md`), `# Doc ${i}\n\n${"lighthouse keeper wick lamp ".repeat(80)}\n`);
  }
  expect(spawnSync(process.execPath, [CLI, "ingest", "docs"], { cwd: work.dir }).status).toBe(0);
});
afterAll(() => work.cleanup());

describe("a closed stdout pipe", () => {
  it("ends the CLI quietly, without a stack trace", async () => {
    const child = spawn(process.execPath, [CLI, "search", "lighthouse keeper", "--top-k", "100"], { cwd: work.dir });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    // Read one chunk, then close our end, as `head -1` would.
    child.stdout.once("data", () => child.stdout.destroy());
    const code = await new Promise<number | null>((r) => child.on("close", r));
    expect(stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js:\d+/);
    expect(code).toBe(0);
  });
});
