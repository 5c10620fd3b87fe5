/**
 * Batched writes, paged pruning and an event loop that keeps turning in
 * ingest: a batch shares one commit but each document rolls back alone; a
 * failed commit fails every document of the batch by name and writes none;
 * pruning pages through the stored documents and keeps a document whose file
 * failed this run, or that another writer replaced meanwhile; timers still fire while a large folder is ingested.
 */
import Database from "better-sqlite3";
import { chmodSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { documentIdFor } from "../src/core/ids.js";
import { sha256 } from "../src/core/text.js";
import { buildChunks } from "../src/ingest/build-chunks.js";
import { Dispatcher } from "../src/ingest/dispatch.js";
import { Ingestor } from "../src/ingest/ingest.js";
import { WriteBatch, type PendingDocument } from "../src/ingest/write-batch.js";
import { SnapshotStore } from "../src/store/snapshots.js";
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

async function sourcesMatching(store: SqliteStore, term: string): Promise<string[]> {
  return (await store.searchLexical([term], 10)).map((h) => h.document.source).sort();
}

describe("WriteBatch", () => {
  it("commits a batch together, and a document that fails to write rolls back alone", async () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const old = new WriteBatch(store);
      old.add(pendingDoc("/docs/b.md", "brass lantern, the old version"));
      expect((await old.commit()).written).toHaveLength(1);

      const batch = new WriteBatch(store);
      batch.add(pendingDoc("/docs/a.md", "brass lantern on the quay"));
      // Breaks the table's CHECK (an extracted document needs its extractor): this write fails.
      batch.add(pendingDoc("/docs/b.md", "brass lantern, the new version", { source_class: "extracted" }));
      batch.add(pendingDoc("/docs/c.md", "brass lantern at the pier"));
      expect(batch.size).toBe(3);
      const outcome = await batch.commit();
      expect(batch.size).toBe(0);
      expect(outcome.written.map((w) => w.pending.doc.source)).toEqual(["/docs/a.md", "/docs/c.md"]);
      expect(outcome.failed.map((f) => f.pending.doc.source)).toEqual(["/docs/b.md"]);
      expect(await sourcesMatching(store, "lantern")).toEqual(["/docs/a.md", "/docs/b.md", "/docs/c.md"]);
      expect(await sourcesMatching(store, "old")).toEqual(["/docs/b.md"]);
      expect(await sourcesMatching(store, "new")).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("fails every document of the batch, writing none, when the commit cannot happen", async () => {
    const path = join(work.dir, "c.sqlite3");
    const store = SqliteStore.open(path, { create: true });
    const other = new Database(path);
    try {
      store.db.pragma("busy_timeout = 50");
      other.exec("BEGIN IMMEDIATE");
      const batch = new WriteBatch(store);
      batch.add(pendingDoc("/docs/a.md", "brass lantern on the quay"));
      batch.add(pendingDoc("/docs/c.md", "brass lantern at the pier"));
      const outcome = await batch.commit();
      expect(outcome.written).toEqual([]);
      expect(outcome.failed.map((f) => [f.pending.doc.source, f.error.code])).toEqual([
        ["/docs/a.md", outcome.failed[0]!.error.code],
        ["/docs/c.md", outcome.failed[0]!.error.code],
      ]);
      expect(outcome.failed[0]!.error.message).toMatch(/locked|busy/i);
      other.exec("ROLLBACK");
      expect((await store.stats()).documents).toBe(0);
    } finally {
      other.close();
      await store.close();
    }
  });

  it("is full at its document, chunk, text or age limit", async () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const none = { documents: 1e9, chunks: 1e9, textUnits: 1e9, maxAgeMs: 1e9 };
      const byCount = new WriteBatch(store, { ...none, documents: 2 });
      byCount.add(pendingDoc("/docs/a.md", "one"));
      expect(byCount.full()).toBe(false);
      byCount.add(pendingDoc("/docs/b.md", "two"));
      expect(byCount.full()).toBe(true);
      const byChunks = new WriteBatch(store, { ...none, chunks: 3 });
      byChunks.add(pendingDoc("/docs/a.md", `# Long\n\n${"tide table entry. ".repeat(400)}`));
      expect(byChunks.full()).toBe(true);
      const byText = new WriteBatch(store, { ...none, textUnits: 10 });
      byText.add(pendingDoc("/docs/a.md", "twelve chars"));
      expect(byText.full()).toBe(true);
      const byAge = new WriteBatch(store, { ...none, maxAgeMs: 5 });
      expect(byAge.full()).toBe(false);
      byAge.add(pendingDoc("/docs/a.md", "one"));
      await new Promise((r) => setTimeout(r, 20));
      expect(byAge.full()).toBe(true);
    } finally {
      await store.close();
    }
  });
});

describe("batch embedding (dense ingest)", () => {
  /** A deterministic stand-in model: the vector encodes the text's length and first code unit. */
  const model = async (texts: string[]) => texts.map((t) => new Float32Array([t.length, t.charCodeAt(0), 1]));

  it("embeds every chunk of the batch in one call and gives each document its own vectors", async () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const batch = new WriteBatch(store);
      const long = `# Long\n\n${"tide table entry. ".repeat(400)}`;
      const docs = [pendingDoc("/docs/a.md", "alpha"), pendingDoc("/docs/b.md", long), pendingDoc("/docs/c.md", "gamma ray")];
      for (const d of docs) batch.add(d);
      expect(docs[1]!.chunks.length).toBeGreaterThan(1);
      const calls: number[] = [];
      await batch.embed(async (texts) => {
        calls.push(texts.length);
        return model(texts);
      });
      expect(calls).toEqual([docs.reduce((n, d) => n + d.chunks.length, 0)]);
      for (const d of docs) {
        expect(d.vectors!.map((v) => [...v])).toEqual(d.chunks.map((c) => [c.text.length, c.text.charCodeAt(0), 1]));
      }
      expect((await batch.commit()).written).toHaveLength(3);
      expect(await store.countVectors()).toBe(calls[0]);
    } finally {
      await store.close();
    }
  });

  it("refuses a provider that returns the wrong number of vectors", async () => {
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    try {
      const batch = new WriteBatch(store);
      batch.add(pendingDoc("/docs/a.md", "alpha"));
      batch.add(pendingDoc("/docs/b.md", "beta"));
      await expect(batch.embed(async (texts) => (await model(texts)).slice(1))).rejects.toMatchObject({ code: "EMBEDDING_FAILED" });
    } finally {
      await store.close();
    }
  });

  it("fails every document of a batch by name, keeping its previous state, when embedding fails", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(docs);
    for (const name of ["a", "b", "c"]) writeFileSync(join(docs, `${name}.md`), `# ${name}\n\nfirst version of ${name}\n`);
    const store = SqliteStore.open(join(work.dir, "c.sqlite3"), { create: true });
    const ingest = (embed?: (texts: string[]) => Promise<Float32Array[]>) =>
      new Ingestor(
        store,
        { chunkSize: 2400, chunkOverlap: 200, maxFileSize: 1 << 20, embed },
        new Dispatcher(),
        new SnapshotStore(join(work.dir, "snapshots")),
      ).run([docs]);
    try {
      expect((await ingest(model)).indexed).toBe(3);
      for (const name of ["a", "b", "c"]) writeFileSync(join(docs, `${name}.md`), `# ${name}\n\nsecond version of ${name}\n`);
      const failing = await ingest(async () => {
        throw new Error("model crashed");
      });
      expect(failing.indexed).toBe(0);
      expect(failing.removed).toBe(0);
      expect(failing.failed.map((f) => f.source).sort()).toEqual(["a", "b", "c"].map((n) => join(docs, `${n}.md`)));
      expect(failing.failed[0]!.message).toMatch(/model crashed/);
      expect(await sourcesMatching(store, "first")).toHaveLength(3);
      expect(await sourcesMatching(store, "second")).toEqual([]);
      expect(await store.countVectors()).toBe(3);
    } finally {
      await store.close();
    }
  });
});

describe("pruning a large folder", () => {
  it("pages through stored documents: removes deleted files past the first page, keeps a file that failed", async () => {
    const docs = join(work.dir, "docs");
    for (let d = 0; d < 3; d++) mkdirSync(join(docs, `d${d}`), { recursive: true });
    const path = (i: number) => join(docs, `d${i % 3}`, `f${i}.md`);
    for (let i = 0; i < 1205; i++) writeFileSync(path(i), `# File ${i}\n\nlighthouse log entry number ${i}\n`);
    const col = await openCollection({ indexDir: join(work.dir, "idx"), create: true });
    try {
      const first = await col.ingest([docs]);
      expect(first).toMatchObject({ indexed: 1205, failed: [] });

      for (const i of [5, 700, 1100, 1204]) rmSync(path(i));
      writeFileSync(path(1150), Buffer.from([0x23, 0x20, 0xff, 0xfe, 0x0a])); // not UTF-8: refused, old state kept
      chmodSync(path(20), 0o000); // unreadable: refused, old state kept (root can still read it)
      const second = await col.ingest([docs]);
      expect(second.removed).toBe(4);
      expect(second.failed.map((f) => f.source)).toContain(path(1150));
      expect((await col.status()).documents).toBe(1201);
      const store = SqliteStore.open(col.path, { create: false });
      try {
        for (const i of [5, 700, 1100, 1204]) expect(await store.documentState(path(i))).toBeUndefined();
        for (const i of [20, 1150, 0, 1203]) expect(await store.documentState(path(i))).toBeDefined();
        expect((await store.getDocumentBySource(path(1150)))!.content_length).toBeGreaterThan(5);
      } finally {
        await store.close();
      }
      expect(second.indexed + second.unchanged + second.failed.length).toBe(1201);
    } finally {
      await col.close();
    }
  });
});

describe("pruning decides by source, not row id", () => {
  it("keeps a document that another writer replaced after this walk saw its file", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(docs);
    const path = (i: number) => join(docs, `f${i}.md`);
    for (let i = 0; i < 40; i++) writeFileSync(path(i), `# File ${i}\n\nharbour log entry number ${i}\n`);
    const col = await openCollection({ indexDir: join(work.dir, "idx"), create: true });
    // A writer that does not take the writer lock (an older groundkit, a hand-made script): its replacement has a new row id.
    const other = SqliteStore.open(col.path, { create: false });
    try {
      await col.ingest([docs]);
      let replaced = false;
      const second = await col.ingest([docs], {
        onProgress: (p) => {
          if (replaced || p.current !== path(30)) return;
          replaced = true;
          // The engine's synchronous calls: the replacement lands before the walk goes on.
          for (const i of [0, 10, 29]) other.engine.replaceDocument(other.engine.getDocumentBySource(path(i))!, []);
        },
      });
      expect(replaced).toBe(true);
      expect(second).toMatchObject({ unchanged: 40, removed: 0 });
      expect((await col.status()).documents).toBe(40);
    } finally {
      await other.close();
      await col.close();
    }
  });
});

describe("ingest and the event loop", () => {
  it("lets timers run while it ingests a large folder (file system calls are synchronous)", async () => {
    const docs = join(work.dir, "flat");
    mkdirSync(docs);
    for (let i = 0; i < 3000; i++) writeFileSync(join(docs, `f${i}.md`), `# File ${i}\n\nharbour pilot log ${i}\n`);
    const col = await openCollection({ indexDir: join(work.dir, "idx"), create: true });
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    try {
      // Ticks seen from the first file to the last (the walk's start and the run's end await anyway).
      const atProgress: number[] = [];
      const summary = await col.ingest([docs], { onProgress: () => atProgress.push(ticks) });
      expect(summary.indexed).toBe(3000);
      expect(atProgress.at(-1)! - atProgress[0]!).toBeGreaterThan(1);
    } finally {
      clearInterval(timer);
      await col.close();
    }
  });
});
