/**
 * The HNSW index of a SQLite collection is built on a worker thread, never on
 * the event loop of the process that asked (issue 26: a serving process keeps
 * answering while an ingest's index build runs, and a reader that finds no usable
 * saved index builds its graph there too). Real SQLite file, real usearch.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { mulberry32 } from "../src/core/random.js";
import type { NewChunk, StoredDocument, VectorIndexStatus } from "../src/store/store.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";

const DIMS = 64;
const DOCS = 300;

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "grk-ann-thread-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function unit(seed: number): Float32Array {
  const rand = mulberry32(seed);
  const v = Float32Array.from({ length: DIMS }, () => rand() * 2 - 1);
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

function doc(i: number): StoredDocument {
  return {
    document_id: `doc-${i}`,
    source: `/corpus/${i}.md`,
    source_class: "text",
    extractor: null,
    base_dir: "/corpus",
    fingerprint: `f${i}`,
    content_hash: `h${i}`,
    content_length: 10,
    ingested_at: "2026-01-01T00:00:00Z",
    metadata: {},
  };
}

function chunk(i: number): NewChunk {
  return {
    chunk_id: `c${i}`,
    ordinal: 0,
    text: `chunk ${i}`,
    start_offset: 0,
    end_offset: 7 + String(i).length,
    start_line: 1,
    end_line: 1,
    page_start: null,
    page_end: null,
    text_hash: `t${i}`,
    heading_path: [],
  };
}

/** How many times the event loop turns while `work` is pending. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const spin = (): void => {
    if (!running) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const result = await work();
  running = false;
  return { result, turns };
}

describe("HNSW builds off the event loop", () => {
  it("builds and saves the index on a worker thread while this thread keeps turning", async () => {
    const store = SqliteStore.open(join(dir, "c.sqlite3"), { create: true, vectorIndex: { minVectors: 50 } });
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < DOCS; i++) await tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]);
      });
      expect((await store.vectorIndexStatus()).state).toBe("missing");
      const progress: number[] = [];
      const { result, turns } = await turnsDuring(() => store.syncVectorIndex((done) => progress.push(done)));
      expect(result).toMatchObject({ kind: "hnsw", state: "current", indexed_vectors: DOCS });
      // A build on this thread would let the loop turn at most once; the worker's lets it spin meanwhile.
      expect(turns).toBeGreaterThan(10);
      expect(progress.at(-1)).toBe(DOCS);
      // The saved index answers this connection's searches: the nearest of a stored vector is itself.
      const hits = await store.searchVectors(unit(7), 3);
      expect(hits[0]!.chunk_id).toBe("c7");
      // Folding a later change also runs there, and leaves the index current.
      await store.transaction(async (tx) => tx.replaceDocument(doc(DOCS), [chunk(DOCS)], [unit(DOCS)]));
      const folded = await turnsDuring(() => store.syncVectorIndex());
      expect(folded.result).toMatchObject({ state: "current", indexed_vectors: DOCS + 1 });
      expect(folded.turns).toBeGreaterThan(10);
    } finally {
      await store.close();
    }
  });

  it("reports a worker's failure as the typed error it was", async () => {
    const path = join(dir, "d.sqlite3");
    const store = SqliteStore.open(path, { create: true, vectorIndex: { minVectors: 50 } });
    try {
      await store.transaction(async (tx) => {
        for (let i = 0; i < 60; i++) await tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]);
      });
      // The worker opens the file by its path: gone, it cannot, and says so with a code.
      rmSync(path);
      await expect(store.syncVectorIndex()).rejects.toMatchObject({ name: "GroundkitError", code: expect.any(String) });
    } finally {
      await store.close();
    }
  });
});

/** A collection of `n` documents with vectors and no saved HNSW index (its writer never synced: a crash before the save). */
async function unsyncedCollection(path: string, n: number): Promise<void> {
  const writer = SqliteStore.open(path, { create: true, vectorIndex: { minVectors: 50 } });
  try {
    await writer.transaction(async (tx) => {
      for (let i = 0; i < n; i++) await tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]);
    });
  } finally {
    await writer.close();
  }
}

/** Polls the reader's status until its searches use a graph (or its build failed: then the status says why). */
async function untilGraphInUse(store: SqliteStore): Promise<VectorIndexStatus> {
  for (;;) {
    const status = await store.vectorIndexStatus();
    if (status.kind === "hnsw" || /could not be built/.test(status.reason ?? "")) return status;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("a reader without a usable saved index", () => {
  let savedTmp: string | undefined;
  let builds: string;
  /** The graph builds' private folders (the temporary directory also holds the test runner's own cache). */
  const graphFolders = (): string[] => readdirSync(builds).filter((name) => name.startsWith("grk-ann-graph-"));
  beforeEach(() => {
    // The reader's graph is built into a private folder under the temporary directory: counted here.
    savedTmp = process.env.TMPDIR;
    builds = join(dir, "tmp");
    mkdirSync(builds);
    process.env.TMPDIR = builds;
  });
  afterEach(() => {
    if (savedTmp === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = savedTmp;
  });

  it("builds its graph on a worker thread, one build for concurrent searches, answering exactly meanwhile", async () => {
    const path = join(dir, "r.sqlite3");
    await unsyncedCollection(path, DOCS);
    const reader = SqliteStore.open(path, { create: false, readonly: true, vectorIndex: { minVectors: 50 } });
    try {
      expect(await reader.vectorIndexStatus()).toMatchObject({ kind: "hnsw", state: "missing" });
      let during: VectorIndexStatus | undefined;
      let buildFolders = -1;
      const { result: first, turns } = await turnsDuring(async () => {
        const hits = await Promise.all([7, 8, 9].map((i) => reader.searchVectors(unit(i), 3)));
        during = await reader.vectorIndexStatus();
        buildFolders = graphFolders().length;
        return { hits, after: await untilGraphInUse(reader) };
      });
      // A build on this thread (inside the first search) would let the loop turn at most once.
      expect(turns, "the event loop turned while the reader's graph was built").toBeGreaterThan(10);
      expect(first.after).toMatchObject({ kind: "hnsw", state: "missing" });
      // Meanwhile: exact answers (the nearest of a stored vector is itself), and one build for the three searches.
      expect(first.hits.map((h) => h[0]!.chunk_id)).toEqual(["c7", "c8", "c9"]);
      expect(during).toMatchObject({ kind: "exact", state: "missing", reason: expect.stringMatching(/building its graph on a worker thread/) });
      expect(buildFolders).toBe(1);
      // The graph's private file is gone once mapped, and a reader writes nothing beside the collection.
      expect(graphFolders()).toEqual([]);
      expect(readdirSync(dir).filter((name) => name.includes("+ann"))).toEqual([]);
      expect((await reader.searchVectors(unit(11), 3))[0]!.chunk_id).toBe("c11");
      // A vector committed after the build is found: the graph catches up from the log like a saved one.
      await unsyncedWrite(path, DOCS);
      expect((await reader.searchVectors(unit(DOCS), 3))[0]!.chunk_id).toBe(`c${DOCS}`);
      expect(graphFolders()).toEqual([]);
    } finally {
      await reader.close();
    }
  });

  it("a failed build leaves search exact, warned once, and is not retried on every search", async () => {
    const path = join(dir, "f.sqlite3");
    await unsyncedCollection(path, 120);
    const reader = SqliteStore.open(path, { create: false, readonly: true, vectorIndex: { minVectors: 50 } });
    const warnings: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (String(chunk).includes("HNSW graph")) warnings.push(String(chunk));
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    });
    try {
      // The worker opens the file by its name: moved away, it cannot (this handle keeps its open file).
      renameSync(path, join(dir, "elsewhere.sqlite3"));
      expect((await reader.searchVectors(unit(5), 3))[0]!.chunk_id).toBe("c5");
      const failed = await untilGraphInUse(reader);
      expect(failed).toMatchObject({ kind: "exact", reason: expect.stringMatching(/could not be built/) });
      for (const i of [6, 7, 8]) expect((await reader.searchVectors(unit(i), 3))[0]!.chunk_id).toBe(`c${i}`);
      expect(graphFolders()).toEqual([]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/dense search is exact/);
    } finally {
      spy.mockRestore();
      await reader.close();
    }
  });

  it("a writable handle whose search is building its graph still syncs the index on a worker thread", async () => {
    // A server's handle: its first dense search found no saved index and started a graph of its own;
    // then its ingest tool syncs the index. That sync is a build too, and must not run on this thread.
    const path = join(dir, "w.sqlite3");
    await unsyncedCollection(path, DOCS);
    const store = SqliteStore.open(path, { create: false, vectorIndex: { minVectors: 50 } });
    try {
      expect((await store.searchVectors(unit(7), 3))[0]!.chunk_id).toBe("c7");
      expect(await store.vectorIndexStatus()).toMatchObject({ kind: "exact", reason: expect.stringMatching(/building its graph/) });
      const { result, turns } = await turnsDuring(() => store.syncVectorIndex());
      expect(turns, "the event loop turned while the index was built").toBeGreaterThan(10);
      expect(result).toMatchObject({ kind: "hnsw", state: "current", indexed_vectors: DOCS });
      expect((await store.searchVectors(unit(8), 3))[0]!.chunk_id).toBe("c8");
    } finally {
      await store.close();
    }
  });

  it("a process exits cleanly with its graph build in flight, leaving no file behind", async () => {
    const path = join(dir, "x.sqlite3");
    await unsyncedCollection(path, DOCS);
    // The built code (its worker is the compiled one); the process never closes the store: nothing keeps it alive.
    const script = `
      import { SqliteStore } from ${JSON.stringify(join(import.meta.dirname, "../dist/store/sqlite/sqlite-store.js"))};
      const [path, dims] = process.argv.slice(1);
      const store = SqliteStore.open(path, { create: false, readonly: true, vectorIndex: { minVectors: 50 } });
      const q = new Float32Array(Number(dims)).map((_, i) => Math.sin(i + 1));
      const hits = await store.searchVectors(q, 3);
      console.log(JSON.stringify({ hits: hits.length, status: await store.vectorIndexStatus() }));
    `;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", script, path, String(DIMS)], {
      encoding: "utf8",
      env: { ...process.env, TMPDIR: builds },
      timeout: 120_000,
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { hits: number; status: VectorIndexStatus };
    expect(out.hits).toBe(3);
    expect(out.status.reason).toMatch(/building its graph on a worker thread/);
    expect(graphFolders()).toEqual([]);
  });
});

/** One more document, with its vector, written by a writer of its own (no sync). */
async function unsyncedWrite(path: string, i: number): Promise<void> {
  const writer = SqliteStore.open(path, { create: false, vectorIndex: { minVectors: 50 } });
  try {
    await writer.transaction(async (tx) => tx.replaceDocument(doc(i), [chunk(i)], [unit(i)]));
  } finally {
    await writer.close();
  }
}
