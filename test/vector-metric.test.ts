/**
 * How vectors are stored and compared: new tables use l2 over unit-length
 * copies (faster in sqlite-vec) and convert back to cosine distance; tables
 * from earlier versions (`distance_metric=cosine`) keep answering as before.
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
  dropVectorTable,
  ensureVectorTable,
  knn,
  loadVectorExtension,
  upsertVectors,
  vectorTableDefinition,
  vectorTableDimensions,
} from "../src/store/sqlite/vector-index.js";
import { cosineSimilarity } from "./support/cosine.js";
import { mulberry32 } from "./support/corpus.js";

let dir: string;
const open: Db[] = [];

function newDb(name = "test.sqlite3"): Db {
  const db = openDatabase(join(dir, name), { create: true });
  loadVectorExtension(db);
  open.push(db);
  return db;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "grk-vecmetric-"));
});

afterEach(() => {
  for (const db of open.splice(0)) if (db.open) db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The table exactly as groundkit versions before the l2 switch created it. */
function createLegacyCosineTable(db: Db, dims: number): void {
  db.exec(`CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[${dims}] distance_metric=cosine)`);
}

/** A vector of length `length` at `angle` radians in the first two dimensions. */
function at(angle: number, length = 1, dims = 4): Float32Array {
  const v = new Float32Array(dims);
  v[0] = length * Math.cos(angle);
  v[1] = length * Math.sin(angle);
  return v;
}

/** Random vectors of random length (0.1 to 10): nothing here is unit length by accident. */
function randomVectors(n: number, dims: number, seed: number): Float32Array[] {
  const rand = mulberry32(seed);
  return Array.from({ length: n }, () => {
    const scale = 0.1 + rand() * 9.9;
    return Float32Array.from({ length: dims }, () => (rand() * 2 - 1) * scale);
  });
}

/** Cosine distance in double precision. */
function cosineDistance(a: Float32Array, b: Float32Array): number {
  return 1 - cosineSimilarity(a, b);
}

function storedVector(db: Db, rowid: number): Float32Array {
  const blob = db.prepare("SELECT embedding FROM chunk_vectors WHERE rowid = ?").pluck().get(BigInt(rowid)) as Buffer;
  return new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
}

function norm(v: Float32Array): number {
  return Math.sqrt(v.reduce((s, x) => s + x * x, 0));
}

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof GroundkitError ? e.code : `not a GroundkitError: ${String(e)}`;
  }
  return undefined;
}

describe("new tables: l2 over unit vectors, reported as cosine distance", () => {
  it("are created with distance_metric=l2", () => {
    const db = newDb();
    ensureVectorTable(db, 4);
    expect(vectorTableDefinition(db)).toEqual({ dimensions: 4, metric: "l2" });
    const sql = db.prepare("SELECT sql FROM sqlite_schema WHERE name = 'chunk_vectors'").pluck().get() as string;
    expect(sql).toMatch(/distance_metric=l2/);
  });

  it("store a unit-length copy and leave the caller's array alone", () => {
    const db = newDb();
    ensureVectorTable(db, 4);
    const input = at(0.5, 7);
    const before = Float32Array.from(input);
    upsertVectors(db, [{ rowid: 1, vector: input }]);
    expect(input).toEqual(before);
    const stored = storedVector(db, 1);
    expect(norm(stored)).toBeCloseTo(1, 6);
    expect(stored[0]).toBeCloseTo(Math.cos(0.5), 6);
    expect(stored[1]).toBeCloseTo(Math.sin(0.5), 6);

    const query = at(0.2, 3);
    const queryBefore = Float32Array.from(query);
    knn(db, query, 1);
    expect(query).toEqual(queryBefore);
  });

  it("rank by direction, not length (written vectors are normalised)", () => {
    const db = newDb();
    ensureVectorTable(db, 4);
    // Row 1 points closer to the query but is long; under plain l2 the short row 2 would win.
    upsertVectors(db, [
      { rowid: 1, vector: at(0.1, 10) },
      { rowid: 2, vector: at(0.3, 1) },
    ]);
    const hits = knn(db, at(0), 2);
    expect(hits.map((h) => h.rowid)).toEqual([1, 2]);
    expect(hits[0]!.distance).toBeCloseTo(1 - Math.cos(0.1), 6);
    expect(hits[1]!.distance).toBeCloseTo(1 - Math.cos(0.3), 6);
  });

  it("return cosine distance for a query of any length (the query is normalised, l2 converted)", () => {
    const db = newDb();
    ensureVectorTable(db, 4);
    upsertVectors(db, [0, 0.4, 1.2, 2, Math.PI].map((angle, i) => ({ rowid: i + 1, vector: at(angle, 1 + i) })));
    for (const length of [1, 0.05, 5]) {
      const hits = knn(db, at(0.1, length), 5);
      expect(hits.map((h) => h.rowid)).toEqual([1, 2, 3, 4, 5]);
      const expected = [0, 0.4, 1.2, 2, Math.PI].map((angle) => 1 - Math.cos(angle - 0.1));
      hits.forEach((h, i) => expect(h.distance).toBeCloseTo(expected[i]!, 6));
    }
    // Opposite directions: distance 2, never past it.
    const opposite = knn(db, at(Math.PI), 5).at(-1)!;
    expect(opposite.rowid).toBe(1);
    expect(opposite.distance).toBeCloseTo(2, 6);
    expect(opposite.distance).toBeLessThanOrEqual(2);
    // The same direction: distance 0.
    expect(knn(db, at(2, 0.3), 1)[0]).toEqual({ rowid: 4, distance: expect.closeTo(0, 6) });
  });

  it("give the same hits and distances as a cosine table, and as cosine computed exactly", () => {
    const dims = 32;
    const vectors = randomVectors(300, dims, 7);
    const queries = randomVectors(25, dims, 99);
    const fresh = newDb("fresh.sqlite3");
    ensureVectorTable(fresh, dims);
    const legacy = newDb("legacy.sqlite3");
    createLegacyCosineTable(legacy, dims);
    const rows = vectors.map((vector, i) => ({ rowid: i + 1, vector }));
    upsertVectors(fresh, rows);
    upsertVectors(legacy, rows);
    expect(vectorTableDefinition(fresh)?.metric).toBe("l2");
    expect(vectorTableDefinition(legacy)?.metric).toBe("cosine");

    for (const q of queries) {
      const exact = vectors
        .map((v, i) => ({ rowid: i + 1, distance: cosineDistance(q, v) }))
        .sort((a, b) => a.distance - b.distance)
        .slice(0, 10);
      const a = knn(fresh, q, 10);
      const b = knn(legacy, q, 10);
      expect(a.map((h) => h.rowid)).toEqual(exact.map((h) => h.rowid));
      expect(b.map((h) => h.rowid)).toEqual(exact.map((h) => h.rowid));
      a.forEach((h, i) => {
        expect(h.distance).toBeCloseTo(exact[i]!.distance, 5);
        expect(h.distance).toBeCloseTo(b[i]!.distance, 5);
      });
    }
  });
});

describe("tables from earlier versions (distance_metric=cosine)", () => {
  it("answer exactly as sqlite-vec's own cosine query does, with vectors stored as given", () => {
    const db = newDb();
    createLegacyCosineTable(db, 4);
    ensureVectorTable(db, 4); // an existing table of the right width is kept, metric and all
    expect(vectorTableDefinition(db)).toEqual({ dimensions: 4, metric: "cosine" });
    const input = at(0.7, 3);
    upsertVectors(db, [
      { rowid: 1, vector: input },
      { rowid: 2, vector: at(0.2, 0.5) },
      { rowid: 3, vector: at(2.5, 9) },
    ]);
    // Stored untouched, as earlier versions stored them.
    expect(storedVector(db, 1)).toEqual(input);

    const query = at(0.4, 2);
    const raw = db
      .prepare("SELECT rowid, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = ? ORDER BY distance")
      .all(Buffer.from(query.buffer), 3) as Array<{ rowid: number; distance: number }>;
    expect(knn(db, query, 3)).toEqual(raw.map((r) => ({ rowid: r.rowid, distance: r.distance })));
    expect(knn(db, query, 3).map((h) => h.rowid)).toEqual([2, 1, 3]);
  });

  it("skip a stored vector without a usable direction instead of ranking it first", () => {
    const db = newDb();
    createLegacyCosineTable(db, 4);
    // Earlier versions accepted these. sqlite-vec's float32 cosine gives the zero vector a NULL distance
    // (sorted first) and the subnormal one -Infinity (its squared length underflows to 0).
    const insert = db.prepare("INSERT INTO chunk_vectors(rowid, embedding) VALUES (?, ?)");
    insert.run(1n, Buffer.alloc(16));
    insert.run(3n, Buffer.from(at(0, 1e-30).buffer));
    const raw = db
      .prepare("SELECT rowid, distance FROM chunk_vectors WHERE embedding MATCH ? AND k = 5 ORDER BY distance")
      .all(Buffer.from(at(0).buffer)) as Array<{ rowid: number; distance: number | null }>;
    expect(raw.slice(0, 2).map((r) => r.distance)).toEqual([null, Number.NEGATIVE_INFINITY]);
    upsertVectors(db, [{ rowid: 2, vector: at(0.1) }]);
    expect(knn(db, at(0), 5)).toEqual([{ rowid: 2, distance: expect.closeTo(1 - Math.cos(0.1), 6) }]);
  });

  it("become l2 tables when dropped and recreated (a re-embed)", () => {
    const db = newDb();
    createLegacyCosineTable(db, 4);
    upsertVectors(db, [{ rowid: 1, vector: at(0, 4) }]);
    expect(vectorTableDefinition(db)?.metric).toBe("cosine");
    db.transaction(() => {
      dropVectorTable(db);
      ensureVectorTable(db, 4);
      upsertVectors(db, [{ rowid: 1, vector: at(0, 4) }]);
    })();
    expect(vectorTableDefinition(db)).toEqual({ dimensions: 4, metric: "l2" });
    expect(norm(storedVector(db, 1))).toBeCloseTo(1, 6);
    expect(knn(db, at(0.3, 2), 1)).toEqual([{ rowid: 1, distance: expect.closeTo(1 - Math.cos(0.3), 6) }]);
  });

  it("are re-read on every call, so a table another connection replaced is never misread", () => {
    const a = newDb();
    createLegacyCosineTable(a, 4);
    upsertVectors(a, [{ rowid: 1, vector: at(0, 5) }]);
    expect(knn(a, at(0.5, 3), 1)[0]!.distance).toBeCloseTo(1 - Math.cos(0.5), 6);

    // Another process re-embeds: the table becomes an 8-wide l2 table.
    const b = openDatabase(join(dir, "test.sqlite3"), { create: false });
    open.push(b);
    loadVectorExtension(b);
    b.transaction(() => {
      dropVectorTable(b);
      ensureVectorTable(b, 8);
      upsertVectors(b, [{ rowid: 1, vector: at(0, 5, 8) }]);
    })();

    expect(vectorTableDefinition(a)).toEqual({ dimensions: 8, metric: "l2" });
    expect(knn(a, at(0.5, 3, 8), 1)).toEqual([{ rowid: 1, distance: expect.closeTo(1 - Math.cos(0.5), 6) }]);
    expect(codeOf(() => knn(a, at(0.5, 3), 1))).toBe("EMBEDDING_MISMATCH");
  });
});

describe("zero and foreign vectors", () => {
  for (const kind of ["l2", "cosine"] as const) {
    it(`${kind === "l2" ? "an" : "a"} ${kind} table refuses an all-zero vector to write or to query, and writes nothing of the batch`, () => {
      const db = newDb();
      if (kind === "l2") ensureVectorTable(db, 4);
      else createLegacyCosineTable(db, 4);
      upsertVectors(db, [{ rowid: 1, vector: at(0) }]);
      const write = (() => {
        try {
          upsertVectors(db, [
            { rowid: 2, vector: at(1) },
            { rowid: 3, vector: new Float32Array(4) },
          ]);
        } catch (e) {
          return e as GroundkitError;
        }
      })();
      expect(write).toBeInstanceOf(GroundkitError);
      expect(write?.code).toBe("EMBEDDING_FAILED");
      expect(write?.message).toMatch(/all zeros/);
      expect(countVectors(db)).toBe(1);
      expect(codeOf(() => knn(db, new Float32Array(4), 1))).toBe("EMBEDDING_FAILED");
    });
  }

  it("an l2 table takes tiny and huge vectors (lengths are computed in double precision)", () => {
    const db = newDb();
    ensureVectorTable(db, 4);
    upsertVectors(db, [
      { rowid: 1, vector: at(0, 1e-30) },
      { rowid: 2, vector: at(1, 1e30) },
    ]);
    expect(norm(storedVector(db, 1))).toBeCloseTo(1, 6);
    expect(norm(storedVector(db, 2))).toBeCloseTo(1, 6);
    expect(knn(db, at(0.2, 1e-30), 2)).toEqual([
      { rowid: 1, distance: expect.closeTo(1 - Math.cos(0.2), 6) },
      { rowid: 2, distance: expect.closeTo(1 - Math.cos(0.8), 6) },
    ]);
  });

  it("a table groundkit did not define (no metric, or another metric) is reported corrupt", () => {
    const noMetric = newDb("a.sqlite3");
    noMetric.exec("CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[4])");
    expect(codeOf(() => vectorTableDimensions(noMetric))).toBe("STORE_CORRUPT");
    expect(codeOf(() => knn(noMetric, at(0), 1))).toBe("STORE_CORRUPT");
    const l1 = newDb("b.sqlite3");
    l1.exec("CREATE VIRTUAL TABLE chunk_vectors USING vec0(embedding float[4] distance_metric=l1)");
    expect(codeOf(() => upsertVectors(l1, [{ rowid: 1, vector: at(0) }]))).toBe("STORE_CORRUPT");
  });
});
