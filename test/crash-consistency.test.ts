/**
 * SIGKILL mid-ingest leaves a consistent index: every document is at its old
 * or its new state, nothing dangles, and the next ingest converges to what a
 * clean run produces.
 */
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256 } from "../src/core/text.js";
import { CLI, grk, tempDir } from "./support/cli.js";
import { generatedDoc, mulberry32, writeCorpus } from "./support/corpus.js";

const DOCS = 300;
let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-crash-");
  writeCorpus(join(work.dir, "docs"), DOCS, 1);
});
afterAll(() => work.cleanup());

/** The store's generation counter: one bump per committed document replacement. */
function generation(): number {
  const db = new Database(join(work.dir, ".groundkit", "default.sqlite3"), { readonly: true });
  try {
    return Number(db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() ?? 0);
  } finally {
    db.close();
  }
}

/**
 * Start an ingest and SIGKILL it once `commits` more documents have committed
 * (polled, so the kill lands mid-run however fast or slow the machine is), or
 * after `fallbackMs` if the run never gets that far.
 */
function killDuringIngest(commits: number, fallbackMs = 20_000): Promise<void> {
  const start = generation();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "ingest", "docs", "--json"], { cwd: work.dir, stdio: "ignore" });
    const deadline = Date.now() + fallbackMs;
    const poll = setInterval(() => {
      if (generation() - start >= commits || Date.now() > deadline) child.kill("SIGKILL");
    }, 2);
    child.on("exit", () => {
      clearInterval(poll);
      resolve();
    });
  });
}

/** Check invariants; returns how many documents are at version 1 and 2. */
function checkConsistent(): [number, number] {
  const versions: [number, number] = [0, 0];
  const db = new Database(join(work.dir, ".groundkit", "default.sqlite3"));
  try {
    expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
    expect(db.pragma("foreign_key_check")).toEqual([]);
    const docs = db.prepare("SELECT id, source, content_hash FROM documents").all() as Array<{ id: number; source: string; content_hash: string }>;
    for (const d of docs) {
      const i = Number(/doc(\d+)\.md$/.exec(d.source)![1]);
      const allowed = [1, 2].map((v) => sha256(generatedDoc(i, v)));
      expect(allowed, d.source).toContain(d.content_hash);
      // Every chunk of the document is from the same version as its row.
      const version = allowed.indexOf(d.content_hash) + 1;
      versions[version === 1 ? 0 : 1] += 1;
      const texts = db.prepare("SELECT text FROM chunks WHERE doc_id = ?").pluck().all(d.id) as string[];
      expect(texts.length).toBeGreaterThan(0);
      expect(texts.join(" ")).toContain(`marker${i}x${version}`);
      expect(texts.join(" ")).not.toContain(`marker${i}x${3 - version}`);
    }
    const chunkCount = db.prepare("SELECT count(*) FROM chunks").pluck().get() as number;
    // The BM25 index counts its live documents exactly: one per chunk, none dangling.
    const indexed = db.prepare("SELECT docs FROM bm25_state WHERE id = 1").pluck().get() as number;
    expect(indexed).toBe(chunkCount);
    return versions;
  } finally {
    db.close();
  }
}

function indexFingerprint(dir: string): string[] {
  const db = new Database(join(dir, ".groundkit", "default.sqlite3"), { readonly: true });
  try {
    const rows = db
      .prepare("SELECT d.source, c.start_offset, c.end_offset, c.text_hash FROM chunks c JOIN documents d ON d.id = c.doc_id")
      .all() as Array<{ source: string; start_offset: number; end_offset: number; text_hash: string }>;
    return rows.map((r) => `${r.source.slice(dir.length)}:${r.start_offset}:${r.end_offset}:${r.text_hash}`).sort();
  } finally {
    db.close();
  }
}

describe("crash consistency", () => {
  it("survives SIGKILL at random moments and converges", async () => {
    expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
    const rand = mulberry32(2024);
    let version = 1;
    let killedMidway = 0;
    for (let round = 0; round < 6; round++) {
      // Flip every file to the other version, then kill the re-ingest midway.
      version = 3 - version;
      writeCorpus(join(work.dir, "docs"), DOCS, version);
      await killDuringIngest(1 + Math.floor(rand() * (DOCS - 2)));
      const [v1, v2] = checkConsistent();
      if (v1 > 0 && v2 > 0) killedMidway++;
    }
    // The kills must really land mid-run for this test to mean anything.
    expect(killedMidway).toBeGreaterThan(0);
    const final = grk(["ingest", "docs", "--json"], { cwd: work.dir });
    expect(final.code).toBe(0);
    checkConsistent();

    const clean = tempDir("grk-clean-");
    try {
      writeCorpus(join(clean.dir, "docs"), DOCS, version);
      expect(grk(["ingest", "docs"], { cwd: clean.dir }).code).toBe(0);
      expect(readFileSync(join(work.dir, "docs", "part0", "doc0.md"), "utf8")).toBe(generatedDoc(0, version));
      // Same layout under different roots: compare (relative source, offsets, text hash) of every chunk.
      expect(indexFingerprint(work.dir)).toEqual(indexFingerprint(clean.dir));
    } finally {
      clean.cleanup();
    }
    // Eight full CLI ingests of the corpus: a budget against hangs, not a timing claim (a loaded 2-core box needs more than 60 s).
  }, 240_000);
});
