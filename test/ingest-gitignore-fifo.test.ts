/**
 * A .gitignore that is a FIFO, or a symlink to one (issue 12, item 6): it is
 * read through the guarded read (regular files only, non-blocking), so the
 * folder it governs is refused by name, at once, instead of ingest waiting
 * forever for a writer. A watchdog releases a blocked open (by opening the
 * FIFO for writing) so a regression fails on its flag rather than hangs.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { IngestSummary } from "../src/ingest/ingest.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let docs: string;
let fifo: string;
let col: Collection;

beforeEach(async () => {
  work = tempDir("grk-fifo-ignore-");
  docs = join(realpathSync(work.dir), "docs");
  mkdirSync(join(docs, "sub"), { recursive: true });
  writeFileSync(join(docs, "other.md"), "# Other\n\nharbour pilot\n");
  writeFileSync(join(docs, "sub", "a.md"), "# A\n\nsecret in sub\n");
  // Hidden, so the walk itself never lists it.
  fifo = join(docs, ".pipe");
  execFileSync("mkfifo", [fifo]);
  col = await openCollection({ indexDir: join(work.dir, "idx"), collection: "c", create: true });
});

afterEach(async () => {
  await col.close();
  work.cleanup();
});

/** Ingest `input` while a watchdog stands by to release an open blocked on the FIFO. */
async function ingestWithWatchdog(input: string): Promise<{ result: IngestSummary | Error; watchdogFired: boolean }> {
  let watchdogFired = false;
  let again: NodeJS.Timeout | undefined;
  const timer = setTimeout(() => {
    watchdogFired = true;
    again = setInterval(() => {
      try {
        closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      } catch {
        // nobody is blocked on it yet
      }
    }, 20);
  }, 10_000);
  try {
    return { result: await col.ingest([input]).catch((err: Error) => err), watchdogFired };
  } finally {
    clearTimeout(timer);
    clearInterval(again);
  }
}

describe("a .gitignore that is not a regular file", () => {
  it("a nested .gitignore symlinked to a FIFO refuses its folder by name; the rest is indexed", async () => {
    symlinkSync(fifo, join(docs, "sub", ".gitignore"));
    const { result, watchdogFired } = await ingestWithWatchdog(docs);
    expect(watchdogFired).toBe(false);
    const summary = result as IngestSummary;
    expect(summary.failed).toHaveLength(1);
    expect(summary.failed[0]).toMatchObject({ source: join(docs, "sub"), code: "FILE_UNREADABLE" });
    expect(summary.failed[0]!.message).toContain(join(docs, "sub", ".gitignore"));
    expect(summary.failed[0]!.message).toMatch(/not a regular file/);
    expect(summary.indexed).toBe(1);
    expect(await col.search("secret")).toEqual([]);
  });

  it("a FIFO .gitignore (no symlink) is refused the same way, not skipped", async () => {
    execFileSync("mkfifo", [join(docs, "sub", ".gitignore")]);
    const { result, watchdogFired } = await ingestWithWatchdog(docs);
    expect(watchdogFired).toBe(false);
    const summary = result as IngestSummary;
    expect(summary.failed.map((f) => [f.source, f.code])).toEqual([[join(docs, "sub"), "FILE_UNREADABLE"]]);
    expect(await col.search("secret")).toEqual([]);
  });

  it("at the root, the ingest fails with a typed error naming the .gitignore", async () => {
    symlinkSync(fifo, join(docs, ".gitignore"));
    const { result, watchdogFired } = await ingestWithWatchdog(docs);
    expect(watchdogFired).toBe(false);
    expect(result).toBeInstanceOf(Error);
    expect(result).toMatchObject({ code: "FILE_UNREADABLE" });
    expect((result as Error).message).toContain(join(docs, ".gitignore"));
    expect((await col.status()).documents).toBe(0);
  });
});
