/**
 * A symlink swapped in between the containment check and the read (issue 12,
 * item 4): the file's own name swapped for a link to an outside file, or a
 * folder above it swapped for a link to an outside folder. No outside text may
 * ever be indexed, searchable or compared by verification. The first tests swap
 * at a fixed point (ingest's progress callback runs after discovery checked the
 * file and before it is read); the loops race a real swapper process.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import { tempDir } from "./support/cli.js";

const SECRET = "zanzibarquokka";
const INSIDE = "# Notes\n\nharmless lighthouse text\n";

let work: { dir: string; cleanup: () => void };
let root: string;
let docs: string;
let outside: string;
let col: Collection;

beforeEach(async () => {
  work = tempDir("grk-race-");
  root = realpathSync(work.dir);
  docs = join(root, "docs");
  outside = join(root, "outside");
  mkdirSync(join(docs, "d"), { recursive: true });
  mkdirSync(join(outside, "d"), { recursive: true });
  writeFileSync(join(docs, "f.md"), INSIDE);
  writeFileSync(join(docs, "d", "g.md"), INSIDE);
  // Same names outside, different (secret) content.
  writeFileSync(join(outside, "secret.md"), `# Secret\n\n${SECRET} credentials\n`);
  writeFileSync(join(outside, "d", "g.md"), `# Secret\n\n${SECRET} in a folder\n`);
  for (let i = 0; i < 60; i++) writeFileSync(join(docs, `filler-${String(i).padStart(2, "0")}.md`), `# Filler ${i}\n\nbeacon ${i}\n`);
  col = await openCollection({ indexDir: join(root, "idx"), collection: "c", create: true });
});

afterEach(async () => {
  await col.close();
  work.cleanup();
});

async function leaked(): Promise<number> {
  return (await col.search(SECRET)).length;
}

describe("a swap between discovery and the read (deterministic)", () => {
  it("a file replaced by a symlink to an outside file is refused, not read", async () => {
    const target = join(docs, "f.md");
    let swapped = false;
    const summary = await col.ingest([docs], {
      onProgress: (p) => {
        if (p.current !== target || swapped) return;
        swapped = true;
        rmSync(target);
        symlinkSync(join(outside, "secret.md"), target);
      },
    });
    expect(swapped).toBe(true);
    expect(await leaked()).toBe(0);
    expect(summary.failed.map((f) => [f.source, f.code])).toEqual([[target, "PATH_ESCAPES_BASE"]]);
    expect(summary.failed[0]!.message).not.toContain(outside);
  });

  it("a folder replaced by a symlink to an outside folder is refused, not read", async () => {
    const target = join(docs, "d", "g.md");
    let swapped = false;
    const summary = await col.ingest([docs], {
      onProgress: (p) => {
        if (p.current !== target || swapped) return;
        swapped = true;
        renameSync(join(docs, "d"), join(root, "parked-d"));
        symlinkSync(join(outside, "d"), join(docs, "d"));
      },
    });
    expect(swapped).toBe(true);
    expect(await leaked()).toBe(0);
    expect(summary.failed.map((f) => [f.source, f.code])).toEqual([[target, "PATH_ESCAPES_BASE"]]);
  });
});

/**
 * A child process that flips docs/f.md between a regular file and a symlink to
 * the outside file, and docs/d between a folder and a symlink to the outside
 * folder, as fast as it can until killed. Each flip is a rename, so a name is
 * always one or the other (or briefly missing).
 */
function startSwapper(): ChildProcess {
  const script = `
    const fs = require("node:fs");
    const [docs, outside] = process.argv.slice(1);
    const f = docs + "/f.md", d = docs + "/d";
    const tmpLink = docs + "/.tmp-link", tmpFile = docs + "/.tmp-file", parked = docs + "/.parked-d", dLink = docs + "/.d-link";
    fs.symlinkSync(outside + "/d", dLink);
    const quiet = (fn) => { try { fn(); } catch {} };
    let announced = false;
    for (;;) {
      quiet(() => { fs.symlinkSync(outside + "/secret.md", tmpLink); fs.renameSync(tmpLink, f); });
      quiet(() => { fs.renameSync(d, parked); fs.renameSync(dLink, d); });
      quiet(() => { fs.writeFileSync(tmpFile, ${JSON.stringify(INSIDE)}); fs.renameSync(tmpFile, f); });
      quiet(() => { fs.renameSync(d, dLink); fs.renameSync(parked, d); });
      if (!announced) { announced = true; process.stdout.write("swapping\\n"); }
    }`;
  return spawn(process.execPath, ["-e", script, docs, outside], { stdio: ["ignore", "pipe", "ignore"] });
}

/** Start the swapper and wait until it has flipped once, so the race really runs on a slow-starting machine. */
async function swapping(): Promise<ChildProcess> {
  const child = startSwapper();
  await new Promise<void>((resolve, reject) => {
    child.stdout!.once("data", () => resolve());
    child.once("exit", (code) => reject(new Error(`the swapper exited (${code}) before swapping`)));
  });
  return child;
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}

describe("a swapper process racing ingest and verification", () => {
  it("never gets outside content indexed or searchable over many ingests", async () => {
    const swapper = await swapping();
    const leaks: number[] = [];
    let refusals = 0;
    try {
      for (let run = 0; run < 40; run++) {
        const summary = await col.ingest([docs]);
        refusals += summary.failed.filter((f) => f.code === "PATH_ESCAPES_BASE").length;
        if ((await leaked()) > 0) leaks.push(run);
      }
    } finally {
      await stop(swapper);
    }
    expect(leaks, `outside content was searchable after runs ${leaks.join(", ")}`).toEqual([]);
    // The race was really run: some swaps were caught.
    expect(refusals).toBeGreaterThan(0);
  });

  it("never lets verification compare against outside content", async () => {
    const summary = await col.ingest([docs]);
    expect(summary.failed).toEqual([]);
    const hits = (await col.search("harmless lighthouse")).filter((h) => !h.citation.source.includes("filler"));
    expect(hits.map((h) => h.citation.source).sort()).toEqual([join(docs, "d", "g.md"), join(docs, "f.md")]);
    const swapper = await swapping();
    const verdicts: Record<string, number> = {};
    const inside = new Set(hits.map((h) => h.citation.source));
    try {
      for (let i = 0; i < 1000; i++) {
        for (const hit of hits) {
          const v = await col.verify(hit.citation);
          // A file gone for an instant of the swap may be found in the other inside file (verify across files): named there.
          const key = v.verdict === "drifted" && v.relocated?.source !== undefined && inside.has(v.relocated.source) && v.relocated.source !== hit.citation.source ? "found in the other inside file" : v.verdict;
          verdicts[key] = (verdicts[key] ?? 0) + 1;
        }
      }
    } finally {
      await stop(swapper);
    }
    // Only the inside text (verified), a refusal (unresolvable) or the other inside file; "drifted" would mean the outside file was read.
    expect(verdicts.drifted ?? 0, JSON.stringify(verdicts)).toBe(0);
    expect(verdicts.unresolvable ?? 0).toBeGreaterThan(0);
  });
});
