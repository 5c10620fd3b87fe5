/**
 * sqlite-vec vectors in a real collection file (opened with the store's own
 * openDatabase, so the chunks table is the real schema).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import type { Db } from "../src/store/sqlite/db.js";
import { openDatabase } from "../src/store/sqlite/open-database.js";
import {
  countVectors,
  deleteOrphanVectors,
  deleteVectors,
  dropVectorTable,
  ensureVectorTable,
  knn,
  loadVectorExtension,
  rowidsMissingVectors,
  upsertVectors,
  vectorTableDimensions,
} from "../src/store/sqlite/vector-index.js";

let dir: string;
let path: string;
let db: Db;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "grk-vec-"));
  path = join(dir, "test.sqlite3");
  db = openDatabase(path, { create: true });
});

afterEach(() => {
  if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Insert a document with `n` chunks; returns the chunk rowids. */
function addDocument(source: string, n: number): number[] {
  const doc = db
    .prepare(
      `INSERT INTO documents (document_id, source, source_class, fingerprint, content_hash, content_length, ingested_at)
       VALUES (?, ?, 'text', 'f', 'h', 1, '2025-01-01T00:00:00Z')`,
    )
    .run(`doc:${source}`, source).lastInsertRowid;
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const r = db
      .prepare(
        `INSERT INTO chunks (chunk_id, doc_id, ordinal, text, start_offset, end_offset, start_line, end_line, text_hash)
         VALUES (?, ?, ?, 't', 0, 1, 1, 1, 'h')`,
      )
      .run(`${source}#${i}`, doc, i);
    ids.push(Number(r.lastInsertRowid));
  }
  return ids;
}

/** A unit vector at `angle` radians in the first two dimensions. */
function at(angle: number, dims = 4): Float32Array {
  const v = new Float32Array(dims);
  v[0] = Math.cos(angle);
  v[1] = Math.sin(angle);
  return v;
}

describe("vector table", () => {
  it("is created lazily, idempotently, and refuses another width", () => {
    expect(vectorTableDimensions(db)).toBeUndefined();
    expect(countVectors(db)).toBe(0);
    ensureVectorTable(db, 4);
    ensureVectorTable(db, 4);
    expect(vectorTableDimensions(db)).toBe(4);
    const err = (() => {
      try {
        ensureVectorTable(db, 8);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(GroundkitError);
    expect((err as GroundkitError).code).toBe("EMBEDDING_MISMATCH");
    expect((err as GroundkitError).message).toContain("4-dimensional");
  });

  it("survives closing and reopening the file", () => {
    const [a] = addDocument("a.md", 1);
    ensureVectorTable(db, 4);
    upsertVectors(db, [{ rowid: a!, vector: at(0) }]);
    db.close();
    db = openDatabase(path, { create: false });
    loadVectorExtension(db);
    expect(countVectors(db)).toBe(1);
    expect(knn(db, at(0), 1)).toEqual([{ rowid: a, distance: expect.closeTo(0, 6) }]);
  });
});

describe("knn", () => {
  it("returns the k nearest by cosine distance, ascending", () => {
    const ids = addDocument("a.md", 5);
    ensureVectorTable(db, 4);
    // Chunk i sits at angle i * 0.3 rad.
    upsertVectors(
      db,
      ids.map((rowid, i) => ({ rowid, vector: at(i * 0.3) })),
    );
    const hits = knn(db, at(0.62), 3);
    expect(hits.map((h) => h.rowid)).toEqual([ids[2], ids[3], ids[1]]);
    expect(hits[0]!.distance).toBeCloseTo(1 - Math.cos(0.02), 6);
    expect(hits[1]!.distance).toBeCloseTo(1 - Math.cos(0.28), 6);
    expect(hits[2]!.distance).toBeCloseTo(1 - Math.cos(0.32), 6);
    for (let i = 1; i < hits.length; i++) expect(hits[i]!.distance).toBeGreaterThanOrEqual(hits[i - 1]!.distance);
    // Cosine ignores length.
    const scaled = at(0.62).map((x) => x * 7);
    expect(knn(db, scaled, 3).map((h) => h.rowid)).toEqual(hits.map((h) => h.rowid));
  });

  it("replaces a vector on upsert and forgets it on delete", () => {
    const ids = addDocument("a.md", 3);
    ensureVectorTable(db, 4);
    upsertVectors(db, ids.map((rowid, i) => ({ rowid, vector: at(i) })));
    upsertVectors(db, [{ rowid: ids[2]!, vector: at(0.01) }]);
    expect(countVectors(db)).toBe(3);
    expect(knn(db, at(0), 2).map((h) => h.rowid)).toEqual([ids[0], ids[2]]);

    expect(deleteVectors(db, [ids[0]!, 999_999])).toBe(1);
    expect(countVectors(db)).toBe(2);
    expect(knn(db, at(0), 3).map((h) => h.rowid)).toEqual([ids[2], ids[1]]);
  });

  it("applies a filter inside the search, not to a short list", () => {
    const near = addDocument("guides/near.md", 6);
    const far = addDocument("notes/far.md", 4);
    ensureVectorTable(db, 4);
    // All of near.md is closer to the query than any chunk of far.md.
    upsertVectors(db, [
      ...near.map((rowid, i) => ({ rowid, vector: at(i * 0.01) })),
      ...far.map((rowid, i) => ({ rowid, vector: at(1 + i * 0.2) })),
    ]);
    const bySql = knn(db, at(0), 3, {
      sql: "SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.source GLOB ?",
      params: ["notes/*"],
    });
    expect(bySql.map((h) => h.rowid)).toEqual(far.slice(0, 3));

    const byIds = knn(db, at(0), 3, { rowids: [far[3]!, BigInt(near[5]!)] });
    expect(byIds.map((h) => h.rowid)).toEqual([near[5], far[3]]);
    expect(knn(db, at(0), 3, { rowids: [] })).toEqual([]);
    expect(() => knn(db, at(0), 3, { sql: "DELETE FROM chunks" })).toThrow(GroundkitError);
  });

  it("binds rowids as BigInt whether given as number or bigint", () => {
    const ids = addDocument("a.md", 2);
    ensureVectorTable(db, 4);
    upsertVectors(db, [
      { rowid: BigInt(ids[0]!), vector: at(0) },
      { rowid: ids[1]!, vector: at(1) },
    ]);
    expect(knn(db, at(1), 2).map((h) => h.rowid)).toEqual([ids[1], ids[0]]);
    // Why: better-sqlite3 binds a JS number as REAL, which vec0 refuses as a rowid.
    expect(() => db.prepare("INSERT INTO chunk_vectors(rowid, embedding) VALUES (?, ?)").run(1.5, Buffer.alloc(16))).toThrow();
    expect(() => upsertVectors(db, [{ rowid: 1.5, vector: at(0) }])).toThrow(GroundkitError);
  });

  it("refuses without a table, with the wrong query width, a non-finite value, or a bad k", () => {
    addDocument("a.md", 1);
    const noTable = (() => {
      try {
        knn(db, at(0), 1);
      } catch (e) {
        return e as GroundkitError;
      }
    })();
    expect(noTable?.code).toBe("NO_VECTORS");
    ensureVectorTable(db, 4);
    expect(() => knn(db, at(0, 8), 1)).toThrow(/8-dimensional/);
    expect(() => upsertVectors(db, [{ rowid: 1, vector: new Float32Array([1, Number.NaN, 0, 0]) }])).toThrow(/non-finite/);
    expect(() => knn(db, at(0), 0)).toThrow(/k must be/);
    expect(() => knn(db, at(0), 5000)).toThrow(/k must be/);
  });
});

describe("transactions", () => {
  it("a vector write rolls back together with the chunk write in the same transaction", () => {
    const [first] = addDocument("a.md", 1);
    ensureVectorTable(db, 4);
    upsertVectors(db, [{ rowid: first!, vector: at(0) }]);

    const replace = db.transaction((fail: boolean) => {
      const [id] = addDocument("b.md", 1);
      upsertVectors(db, [{ rowid: id!, vector: at(1) }]);
      deleteVectors(db, [first!]);
      if (fail) throw new Error("crash mid-write");
    });
    expect(() => replace(true)).toThrow("crash mid-write");
    expect(db.prepare("SELECT count(*) FROM chunks").pluck().get()).toBe(1);
    expect(countVectors(db)).toBe(1);
    expect(knn(db, at(0), 5).map((h) => h.rowid)).toEqual([first]);

    replace(false);
    expect(db.prepare("SELECT count(*) FROM chunks").pluck().get()).toBe(2);
    expect(countVectors(db)).toBe(1);
    expect(knn(db, at(0), 5)).toHaveLength(1);
  });

  it("dropping and recreating the table (a re-embed) is atomic too", () => {
    const ids = addDocument("a.md", 2);
    ensureVectorTable(db, 4);
    upsertVectors(db, ids.map((rowid, i) => ({ rowid, vector: at(i) })));
    const reembed = db.transaction((fail: boolean) => {
      dropVectorTable(db);
      ensureVectorTable(db, 8);
      upsertVectors(db, ids.map((rowid) => ({ rowid, vector: at(0, 8) })));
      if (fail) throw new Error("interrupted");
    });
    expect(() => reembed(true)).toThrow("interrupted");
    expect(vectorTableDimensions(db)).toBe(4);
    expect(countVectors(db)).toBe(2);
    expect(knn(db, at(0), 1)[0]!.rowid).toBe(ids[0]);

    reembed(false);
    expect(vectorTableDimensions(db)).toBe(8);
    expect(countVectors(db)).toBe(2);
  });
});

describe("backfill and cleanup", () => {
  it("lists the chunks that lack a vector, ascending, with a limit", () => {
    const ids = addDocument("a.md", 4);
    expect(rowidsMissingVectors(db)).toEqual(ids);
    ensureVectorTable(db, 4);
    upsertVectors(db, [{ rowid: ids[1]!, vector: at(0) }]);
    expect(rowidsMissingVectors(db)).toEqual([ids[0], ids[2], ids[3]]);
    expect(rowidsMissingVectors(db, 2)).toEqual([ids[0], ids[2]]);
  });

  it("removes vectors whose chunks were deleted", () => {
    const a = addDocument("a.md", 2);
    const b = addDocument("b.md", 2);
    ensureVectorTable(db, 4);
    upsertVectors(db, [...a, ...b].map((rowid) => ({ rowid, vector: at(rowid) })));
    db.prepare("DELETE FROM documents WHERE source = ?").run("a.md");
    expect(countVectors(db)).toBe(4);
    expect(deleteOrphanVectors(db)).toBe(2);
    expect(countVectors(db)).toBe(2);
    expect(knn(db, at(0), 10).map((h) => h.rowid).sort((x, y) => x - y)).toEqual(b);
  });
});
