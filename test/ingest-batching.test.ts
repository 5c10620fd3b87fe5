/**
 * Batched writes, read-ahead and paged pruning in ingest: a batch shares one
 * commit but each document rolls back alone; a failed commit fails every
 * document of the batch by name and writes none; read-ahead keeps order,
 * bounds, errors and early exits; pruning pages through the stored documents
 * and keeps a document whose file failed this run.
 */
import Database from "better-sqlite3";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection.js";
import { documentIdFor } from "../src/core/ids.js";
import { sha256 } from "../src/core/text.js";
import { buildChunks } from "../src/ingest/build-chunks.js";
import { readAhead } from "../src/ingest/read-ahead.js";
import { RowidSet } from "../src/ingest/rowid-set.js";
import { WriteBatch, type PendingDocument } from "../src/ingest/write-batch.js";
import { SqliteStore } from "../src/store/sqlite/sqlite-store.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
beforeEach(() => {
  work = tempDir("grk-batching-");
});
afterEach(() => work.cleanup());

function pendingDoc(source: string, text: string, extra: Partial<PendingDocument["doc"]> = {}): PendingDocument {
  const loaded = { content: text, sourceClass: "text" as const, extractor: null, markdown: true };
  return {
    doc: {
      document_id: documentIdFor(source),
      source,
      source_class: "text",
      extractor: null,
      base_dir: "/docs",
      fingerprint: sha256(text),
      content_hash: sha256(text),
      content_length: text.length,
      ingested_at: "2026-11-30T00:00:00.000Z",
      metadata: {},
      ...extra,
    },
    chunks: buildChunks(source, loaded, { chunkSize: 2400, chunkOverlap: 200 }),
  };
}

function sourcesMatching(store: SqliteStore, term: string): string[] {
  return store.searchLexical([term], 10).map((h) => h.document.source).sort();
}

describe("WriteBatch", () => {
  it("commits a batch together, and a document that fails to write rolls back alone", () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const old = new WriteBatch(store);
      old.add(pendingDoc("/docs/b.md", "brass lantern, the old version"));
      expect(old.commit().written).toHaveLength(1);

      const batch = new WriteBatch(store);
      batch.add(pendingDoc("/docs/a.md", "brass lantern on the quay"));
      // Breaks the table's CHECK (an extracted document needs its extractor): this write fails.
      batch.add(pendingDoc("/docs/b.md", "brass lantern, the new version", { source_class: "extracted" }));
      batch.add(pendingDoc("/docs/c.md", "brass lantern at the pier"));
      expect(batch.size).toBe(3);
      const outcome = batch.commit();
      expect(batch.size).toBe(0);
      expect(outcome.written.map((w) => w.pending.doc.source)).toEqual(["/docs/a.md", "/docs/c.md"]);
      expect(outcome.failed.map((f) => f.pending.doc.source)).toEqual(["/docs/b.md"]);
      expect(outcome.written.map((w) => w.rowid)).toEqual(
        ["/docs/a.md", "/docs/c.md"].map((s) => store.documentState(s)!.rowid),
      );
      expect(sourcesMatching(store, "lantern")).toEqual(["/docs/a.md", "/docs/b.md", "/docs/c.md"]);
      expect(sourcesMatching(store, "old")).toEqual(["/docs/b.md"]);
      expect(sourcesMatching(store, "new")).toEqual([]);
    } finally {
      store.close();
    }
  });

  it("fails every document of the batch, writing none, when the commit cannot happen", () => {
    const path = join(work.dir, "c.sqlite3");
    const store = SqliteStore.open(path, { create: true });
    const other = new Database(path);
    try {
      store.db.pragma("busy_timeout = 50");
      other.exec("BEGIN IMMEDIATE");
      const batch = new WriteBatch(store);
      batch.add(pendingDoc("/docs/a.md", "brass lantern on the quay"));
      batch.add(pendingDoc("/docs/c.md", "brass lantern at the pier"));
      const outcome = batch.commit();
      expect(outcome.written).toEqual([]);
      expect(outcome.failed.map((f) => [f.pending.doc.source, f.error.code])).toEqual([
        ["/docs/a.md", outcome.failed[0]!.error.code],
        ["/docs/c.md", outcome.failed[0]!.error.code],
      ]);
      expect(outcome.failed[0]!.error.message).toMatch(/locked|busy/i);
      other.exec("ROLLBACK");
      expect(store.stats().documents).toBe(0);
    } finally {
      other.close();
      store.close();
    }
  });

  it("is full at its document limit, its text limit or its age limit", async () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const byCount = new WriteBatch(store, { documents: 2, textUnits: 1e9, maxAgeMs: 1e9 });
      byCount.add(pendingDoc("/docs/a.md", "one"));
      expect(byCount.full()).toBe(false);
      byCount.add(pendingDoc("/docs/b.md", "two"));
      expect(byCount.full()).toBe(true);
      const byText = new WriteBatch(store, { documents: 100, textUnits: 10, maxAgeMs: 1e9 });
      byText.add(pendingDoc("/docs/a.md", "twelve chars"));
      expect(byText.full()).toBe(true);
      const byAge = new WriteBatch(store, { documents: 100, textUnits: 1e9, maxAgeMs: 5 });
      expect(byAge.full()).toBe(false);
      byAge.add(pendingDoc("/docs/a.md", "one"));
      await new Promise((r) => setTimeout(r, 20));
      expect(byAge.full()).toBe(true);
    } finally {
      store.close();
    }
  });
});

describe("readAhead", () => {
  async function* numbers(n: number, log: string[], failAt?: number): AsyncGenerator<number> {
    try {
      for (let i = 0; i < n; i++) {
        if (i === failAt) throw new Error(`source failed at ${i}`);
        log.push(`pulled ${i}`);
        yield i;
      }
    } finally {
      log.push("source closed");
    }
  }

  it("yields every item in order with its work's outcome, errors included", async () => {
    const out: unknown[] = [];
    const work = (i: number) => (i % 3 === 2 ? undefined : i === 4 ? Promise.reject(new Error("four")) : Promise.resolve(i * 10));
    for await (const { item, result } of readAhead(numbers(7, []), work, () => 1, { items: 3, weight: 100 })) {
      const r = await result;
      out.push(r === undefined ? [item, "none"] : r.ok ? [item, r.value] : [item, (r.error as Error).message]);
    }
    expect(out).toEqual([[0, 0], [1, 10], [2, "none"], [3, 30], [4, "four"], [5, "none"], [6, 60]]);
  });

  /** Consume slowly; return how many items were started and the most started ahead of the consumer. */
  async function consumeSlowly(n: number, weight: number, limits: { items: number; weight: number }) {
    let started = 0;
    let consumed = 0;
    let maxAhead = 0;
    const work = (i: number) => {
      started++;
      maxAhead = Math.max(maxAhead, started - consumed);
      return Promise.resolve(i);
    };
    for await (const ahead of readAhead(numbers(n, []), work, () => weight, limits)) {
      await ahead.result;
      await new Promise((r) => setTimeout(r, 1));
      consumed++;
    }
    return { started, maxAhead };
  }

  it("starts work at most `items` ahead, and by weight, but always at least one", async () => {
    // The producer may start one more item while the consumer holds the one just taken.
    expect(await consumeSlowly(20, 1, { items: 4, weight: 100 })).toEqual({ started: 20, maxAhead: 5 });
    expect(await consumeSlowly(6, 1000, { items: 4, weight: 10 })).toEqual({ started: 6, maxAhead: 2 });
  });

  it("throws the source's error after the items before it", async () => {
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const { item } of readAhead(numbers(10, [], 3), (i) => Promise.resolve(i), () => 1, { items: 8, weight: 8 })) {
          seen.push(item);
        }
      })(),
    ).rejects.toThrow("source failed at 3");
    expect(seen).toEqual([0, 1, 2]);
  });

  it("closes the source when the consumer stops early", async () => {
    const log: string[] = [];
    for await (const { item } of readAhead(numbers(1000, log), (i) => Promise.resolve(i), () => 1, { items: 4, weight: 4 })) {
      if (item === 2) break;
    }
    expect(log.at(-1)).toBe("source closed");
    expect(log.filter((l) => l.startsWith("pulled")).length).toBeLessThan(10);
  });
});

describe("RowidSet", () => {
  it("remembers row ids, growing as needed", () => {
    const set = new RowidSet();
    for (const id of [0, 1, 31, 32, 33, 1_000_003]) set.add(id);
    for (const id of [0, 1, 31, 32, 33, 1_000_003]) expect(set.has(id)).toBe(true);
    for (const id of [2, 30, 34, 1_000_002, 1_000_004, 5_000_000]) expect(set.has(id)).toBe(false);
    expect(() => set.add(-1)).toThrow(RangeError);
    expect(() => set.add(1.5)).toThrow(RangeError);
  });
});

describe("pruning a large folder", () => {
  it("pages through stored documents: removes deleted files past the first page, keeps a file that failed", async () => {
    const docs = join(work.dir, "docs");
    for (let d = 0; d < 3; d++) mkdirSync(join(docs, `d${d}`), { recursive: true });
    const path = (i: number) => join(docs, `d${i % 3}`, `f${i}.md`);
    for (let i = 0; i < 1205; i++) writeFileSync(path(i), `# File ${i}\n\nlighthouse log entry number ${i}\n`);
    const col = openCollection({ indexDir: join(work.dir, "idx"), create: true });
    try {
      const first = await col.ingest([docs]);
      expect(first).toMatchObject({ indexed: 1205, failed: [] });

      for (const i of [5, 700, 1100, 1204]) rmSync(path(i));
      writeFileSync(path(1150), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])); // not UTF-8: refused, old state kept
      chmodSync(path(20), 0o000); // unreadable: refused, old state kept (root can still read it)
      const second = await col.ingest([docs]);
      expect(second.removed).toBe(4);
      expect(second.failed.map((f) => f.source)).toContain(path(1150));
      expect(col.status().documents).toBe(1201);
      const store = SqliteStore.open(col.path, { create: false });
      try {
        for (const i of [5, 700, 1100, 1204]) expect(store.documentState(path(i))).toBeUndefined();
        for (const i of [20, 1150, 0, 1203]) expect(store.documentState(path(i))).toBeDefined();
        expect(store.getDocumentBySource(path(1150))!.content_length).toBeGreaterThan(5);
      } finally {
        store.close();
      }
      expect(second.indexed + second.unchanged + second.failed.length).toBe(1201);
    } finally {
      col.close();
    }
  });
});
