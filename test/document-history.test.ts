/**
 * Document history (docs/decisions/0031-document-history.md) on both stores: a
 * replaced or removed document's previous text is kept, content-addressed (an
 * unchanged chunk is stored once), a drifted citation carries the text as it
 * was cited and the version that held it, old versions read back, retention
 * is enforced at ingest, `off` keeps nothing, and the integrity check finds a
 * dangling span and a tampered block. Real SQLite files and a real PostgreSQL
 * server on 127.0.0.1 (test/support/postgres-server.ts).
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection, type OpenCollectionOptions } from "../src/collection/index.js";
import { parseHistorySpec } from "../src/collection/history.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let server: TestPostgres;
let work: { dir: string; cleanup: () => void };
const pgStore = { kind: "postgres" as const, url_env: "GRK_HISTORY_PG_URL", schema: "hist" };

beforeAll(async () => {
  server = await startPostgres();
  process.env.GRK_HISTORY_PG_URL = server.url;
  work = tempDir("grk-history-");
});
afterAll(async () => {
  await server?.stop();
  work?.cleanup();
});

/** A section of prose long enough to make a chunk of its own (chunk size 200). */
function section(title: string, words: string): string {
  return `## ${title}\n\n${Array.from({ length: 4 }, (_, i) => `${words} ${i}.`).join(" ")}\n\n`;
}

const V1 = section("Alpha", "alpha text stays") + section("Beta", "beta text before the edit") + section("Gamma", "gamma text stays");
const V2 = section("Alpha", "alpha text stays") + section("Beta", "beta text after a rewrite") + section("Gamma", "gamma text stays");

interface Fixture {
  col: Collection;
  docs: string;
  file: string;
  name: string;
  opts: OpenCollectionOptions;
}

let counter = 0;
async function fixture(kind: "sqlite" | "postgres"): Promise<Fixture> {
  const name = `h${++counter}`;
  const docs = join(work.dir, `docs-${name}`);
  mkdirSync(docs, { recursive: true });
  const file = join(docs, "notes.md");
  writeFileSync(file, V1);
  const opts: OpenCollectionOptions = { indexDir: join(work.dir, `idx-${name}`), collection: name, create: true, ...(kind === "postgres" ? { store: pgStore } : {}) };
  const col = await openCollection(opts);
  await col.ingest([docs], { chunkSize: 200, chunkOverlap: 0 });
  return { col, docs, file, name, opts };
}

/** The citation of the chunk holding `needle`. */
async function citationOf(col: Collection, needle: string) {
  const hits = await col.search(needle, { topK: 10 });
  const hit = hits.find((h) => h.text.includes(needle));
  expect(hit, needle).toBeDefined();
  return { citation: hit!.citation, text: hit!.text, chunkId: hit!.chunk_id };
}

for (const kind of ["sqlite", "postgres"] as const) {
  describe(`document history (${kind})`, () => {
    it("keeps the replaced text: a drifted citation shows it as cited, history lists both versions, the old one reads back", async () => {
      const f = await fixture(kind);
      try {
        const beta = await citationOf(f.col, "beta text before the edit");
        // Edited on disk, not re-ingested yet: the index still holds the cited text (version 0).
        writeFileSync(f.file, V2);
        const before = await f.col.verify(beta.citation);
        expect(before.verdict).toBe("drifted");
        expect(before.as_cited).toMatchObject({ text: beta.text, version: 0, source: f.file });

        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        const after = await f.col.verify(beta.citation);
        expect(after.verdict).toBe("drifted");
        expect(after.as_cited).toMatchObject({ text: beta.text, version: 1, source: f.file });

        const h = await f.col.history(f.file);
        expect(h.versions.map((v) => [v.version, v.status])).toEqual([
          [0, "current"],
          [1, "replaced"],
        ]);
        expect(after.as_cited!.ingested_at).toBe(h.versions[1]!.ingested_at);
        const old = await f.col.readVersion(f.file, "1");
        expect(old.text).toBe(V1);
        expect(old.exact).toBe(true);
        expect((await f.col.readVersion(f.file, h.versions[1]!.ingested_at)).text).toBe(V1);
        expect((await f.col.readVersion(f.file, "0")).text).toBe(V2);
        await expect(f.col.readVersion(f.file, "7")).rejects.toMatchObject({ code: "VERSION_NOT_FOUND" });

        // Content-addressed: the unchanged Alpha and Gamma chunks are one block each across both versions.
        const health = await f.col.historyHealth();
        expect(health).toMatchObject({ versions: 1, dangling: 0, mismatched: 0 });
      } finally {
        await f.col.close();
      }
    });

    it("stores a chunk that did not change once, however many versions hold it", async () => {
      const f = await fixture(kind);
      try {
        for (let i = 0; i < 4; i++) {
          writeFileSync(f.file, V1 + section("Tail", `tail revision ${i}`));
          await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        }
        const health = await f.col.historyHealth();
        // Four previous versions: the three sections of V1 once each, plus three tail revisions.
        expect(health.versions).toBe(4);
        expect(health.blocks).toBe(3 + 3);
      } finally {
        await f.col.close();
      }
    });

    it("keeps a removed document's text, and drops what retention says at the next ingest", async () => {
      const f = await fixture(kind);
      try {
        const alpha = await citationOf(f.col, "alpha text stays");
        rmSync(f.file);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        const gone = await f.col.verify(alpha.citation);
        expect(gone.verdict).toBe("unresolvable");
        expect(gone.as_cited).toMatchObject({ text: alpha.text, version: 1 });
        expect((await f.col.history(f.file)).versions.map((v) => v.status)).toEqual(["removed"]);

        // versions=1 keeps one previous version per document; the second replacement drops the first.
        writeFileSync(f.file, V1);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0, history: parseHistorySpec("versions=1") });
        writeFileSync(f.file, V2);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        expect((await f.col.history(f.file)).versions.map((v) => v.status)).toEqual(["current", "replaced"]);
        // A byte budget below one version drops them all (and their blocks).
        await f.col.ingest([f.docs], { history: parseHistorySpec("bytes=10") });
        expect(await f.col.historyHealth()).toMatchObject({ versions: 0, blocks: 0, bytes: 0 });
      } finally {
        await f.col.close();
      }
    });

    it("keeps nothing when off: replacing and removing write no history, and turning it off drops what was kept", async () => {
      const f = await fixture(kind);
      try {
        writeFileSync(f.file, V2);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        expect((await f.col.historyHealth()).versions).toBe(1);
        writeFileSync(f.file, V1);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0, history: { enabled: false } });
        rmSync(f.file);
        await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        expect(await f.col.historyHealth()).toMatchObject({ versions: 0, blocks: 0 });
        await expect(f.col.history(f.file)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
      } finally {
        await f.col.close();
      }
    });

    it("migrates a collection made before history (SQLite schema 3, PostgreSQL 3) and keeps history from then on", async () => {
      const f = await fixture(kind);
      const beta = await citationOf(f.col, "beta text before the edit");
      await f.col.close();
      // What an earlier groundkit wrote: the same tables without the history ones, at the earlier version.
      const drop = ["DROP TABLE history_spans", "DROP TABLE history_blocks", "DROP TABLE history_versions"];
      if (kind === "sqlite") {
        const db = new Database(join(f.opts.indexDir!, `${f.name}.sqlite3`));
        for (const sql of drop) db.exec(sql);
        db.pragma("user_version = 3");
        db.close();
      } else {
        const store = await PostgresStore.open(pgStore, f.name, { create: false });
        for (const sql of drop) await store.pool.query(sql);
        await store.pool.query("UPDATE meta SET value = '3' WHERE key = 'schema_version'");
        await store.close();
      }
      const col = await openCollection(f.opts);
      try {
        writeFileSync(f.file, V2);
        await col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
        expect((await col.verify(beta.citation)).as_cited).toMatchObject({ text: beta.text, version: 1 });
      } finally {
        await col.close();
      }
    });

    it("reports a dangling span and a block whose text does not hash to its key", async () => {
      const f = await fixture(kind);
      writeFileSync(f.file, V2);
      await f.col.ingest([f.docs], { chunkSize: 200, chunkOverlap: 0 });
      await f.col.close();
      const tamper = [
        "UPDATE history_blocks SET text = text || 'x' WHERE hash = (SELECT min(hash) FROM history_blocks)",
        "DELETE FROM history_blocks WHERE hash = (SELECT max(hash) FROM history_blocks)",
      ];
      if (kind === "sqlite") {
        const db = new Database(join(f.opts.indexDir!, `${f.name}.sqlite3`));
        for (const sql of tamper) db.exec(sql);
        db.close();
      } else {
        const store = await PostgresStore.open(pgStore, f.name, { create: false });
        for (const sql of tamper) await store.pool.query(sql);
        await store.close();
      }
      const col = await openCollection({ ...f.opts, create: false });
      try {
        expect(await col.historyHealth()).toMatchObject({ dangling: 1, mismatched: 1 });
      } finally {
        await col.close();
      }
    });
  });
}

describe("history retention as written", () => {
  it("reads off, on and versions/days/bytes, and refuses anything else with a clear error", () => {
    expect(parseHistorySpec("off")).toEqual({ enabled: false });
    expect(parseHistorySpec("versions=5,days=30,bytes=100MB")).toEqual({ enabled: true, versions: 5, max_age_days: 30, max_bytes: 100e6 });
    expect(parseHistorySpec("bytes=1MiB")).toEqual({ enabled: true, max_bytes: 1024 * 1024 });
    expect(() => parseHistorySpec("versions=0")).toThrow(/versions=N/);
    expect(() => parseHistorySpec("forever")).toThrow(/off, on/);
  });
});
