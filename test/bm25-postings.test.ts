/**
 * The persisted BM25 engine against a brute-force reference computed over the
 * same tokens: identical top-k (ties aside) on random corpora, through
 * flushes, merges, removals, compactions and re-adds; transactions and a
 * second connection; filters; parameters; edge cases.
 */
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import type { Db } from "../src/store/sqlite/db.js";
import { PostingsIndex, type PostingsHit } from "../src/store/sqlite/postings.js";
import { compareTerms, termBytes, termString } from "../src/store/sqlite/postings-codec.js";
import { tempDir } from "./support/cli.js";
import { mulberry32 } from "./support/corpus.js";

let work: { dir: string; cleanup: () => void };
let opened: Db[] = [];
let fileNo = 0;

beforeEach(() => {
  work = tempDir("grk-bm25-");
  opened = [];
});
afterEach(() => {
  for (const db of opened) if (db.open) db.close();
  work.cleanup();
});

function openDb(path = join(work.dir, `index-${fileNo++}.sqlite3`), readonly = false): Db {
  const db = new Database(path, { readonly });
  db.pragma("busy_timeout = 5000");
  if (!readonly) db.pragma("journal_mode = WAL");
  opened.push(db);
  return db;
}


/**
 * Term names: plain ("t17") or mixed-script ones whose code point order and
 * UTF-16 order disagree (astral characters vs U+E000..U+FFFF), of varied
 * length, so term leaves split and order must follow UTF-8 bytes.
 */
const ALPHABET = ["a", "b", "é", "中", "\uE000", "ｚ", "😀", "𠀀", "z", "ß"];
function termName(i: number, unicode: boolean): string {
  if (!unicode) return `t${i}`;
  let s = "";
  let x = i + 1;
  while (x > 0) {
    s += ALPHABET[x % ALPHABET.length]!;
    x = Math.floor(x / ALPHABET.length);
  }
  return s + "x".repeat(i % 23) + (i % 2 === 0 ? "😀" : "ｚ");
}

/** A Zipf-ish term picker over `v` terms (see {@link termName}). */
function zipf(rand: () => number, v: number, unicode = false): () => string {
  const cdf: number[] = [];
  let acc = 0;
  for (let r = 1; r <= v; r++) cdf.push((acc += 1 / r));
  return () => {
    const u = rand() * acc;
    let lo = 0;
    let hi = v - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid]! < u) lo = mid + 1;
      else hi = mid;
    }
    return termName(lo, unicode);
  };
}

/** Brute-force BM25 over live documents, Lucene/Anserini formulation. */
class Reference {
  readonly docs = new Map<number, string[]>();
  private readonly tfCache = new WeakMap<string[], Map<string, number>>();

  private tfs(toks: string[]): Map<string, number> {
    let m = this.tfCache.get(toks);
    if (!m) {
      m = new Map();
      for (const t of toks) m.set(t, (m.get(t) ?? 0) + 1);
      this.tfCache.set(toks, m);
    }
    return m;
  }

  scores(terms: string[], k1: number, b: number): Map<number, number> {
    // A term given n times counts n times (query term frequency).
    const qtf = new Map<string, number>();
    for (const t of terms) if (t !== "") qtf.set(t, (qtf.get(t) ?? 0) + 1);
    const uniq = [...qtf.keys()];
    const n = this.docs.size;
    const out = new Map<number, number>();
    if (n === 0) return out;
    let total = 0;
    const df = new Map<string, number>(uniq.map((t) => [t, 0]));
    for (const toks of this.docs.values()) {
      total += toks.length;
      const tfs = this.tfs(toks);
      for (const t of uniq) if (tfs.has(t)) df.set(t, df.get(t)! + 1);
    }
    const avgdl = total / n;
    for (const [rowid, toks] of this.docs) {
      const tfs = this.tfs(toks);
      let score = 0;
      let matched = false;
      for (const t of uniq) {
        const tf = tfs.get(t) ?? 0;
        if (tf === 0) continue;
        matched = true;
        const d = df.get(t)!;
        const idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
        score += (qtf.get(t)! * idf * (tf * (k1 + 1))) / (tf + k1 * (1 - b + (b * toks.length) / avgdl));
      }
      if (matched) out.set(rowid, score);
    }
    return out;
  }

  search(terms: string[], k: number, k1 = 0.9, b = 0.4, allow?: (r: number) => boolean, all = this.scores(terms, k1, b)): PostingsHit[] {
    return [...all]
      .filter(([rowid]) => !allow || allow(rowid))
      .map(([rowid, score]) => ({ rowid, score }))
      .sort((x, y) => y.score - x.score || x.rowid - y.rowid)
      .slice(0, k);
  }

  stats(): { docs: number; avgdl: number; terms: number } {
    let total = 0;
    const terms = new Set<string>();
    for (const toks of this.docs.values()) {
      total += toks.length;
      for (const t of toks) terms.add(t);
    }
    return { docs: this.docs.size, avgdl: this.docs.size ? total / this.docs.size : 0, terms: terms.size };
  }
}

const close = (a: number, b: number): boolean => Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b));

/** Same top-k as the reference, ties aside: scores per rank agree, and every hit has its true score. */
function expectSameTopK(actual: PostingsHit[], expected: PostingsHit[], all: Map<number, number>, context: string): void {
  const msg = `${context}\nactual   ${JSON.stringify(actual)}\nexpected ${JSON.stringify(expected)}`;
  expect(actual.length, msg).toBe(expected.length);
  for (let i = 0; i < actual.length; i++) {
    const a = actual[i]!;
    expect(close(a.score, expected[i]!.score), msg).toBe(true);
    expect(all.has(a.rowid), msg).toBe(true);
    expect(close(a.score, all.get(a.rowid)!), msg).toBe(true);
    expect(a.score, msg).toBeGreaterThan(0);
    if (i > 0) {
      const p = actual[i - 1]!;
      expect(p.score > a.score || (p.score === a.score && p.rowid < a.rowid), msg).toBe(true);
    }
  }
  expect(new Set(actual.map((h) => h.rowid)).size).toBe(actual.length);
}

function randomDoc(rand: () => number, term: () => string, maxLen: number): string[] {
  const len = Math.floor(rand() * (maxLen + 1));
  return Array.from({ length: len }, term);
}

function randomQuery(rand: () => number, term: () => string, vocab: number, unicode = false): string[] {
  const n = 1 + Math.floor(rand() * 14);
  const q: string[] = [];
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.1) q.push(`unknown${Math.floor(rand() * 5)}`);
    else if (r < 0.5) q.push(termName(Math.floor(rand() * vocab), unicode));
    else q.push(term());
  }
  return q;
}

function checkQueries(
  index: PostingsIndex,
  ref: Reference,
  rand: () => number,
  term: () => string,
  vocab: number,
  n: number,
  ctx: string,
  unicode: boolean,
): void {
  for (let q = 0; q < n; q++) {
    const terms = randomQuery(rand, term, vocab, unicode);
    const k = [1, 3, 10, 50][Math.floor(rand() * 4)]!;
    const all = ref.scores(terms, 0.9, 0.4);
    expectSameTopK(index.search(terms, k), ref.search(terms, k, 0.9, 0.4, undefined, all), all, `${ctx} q=${JSON.stringify(terms)} k=${k}`);
  }
}

describe("term encoding", () => {
  const anyString = fc.string({ unit: "binary", maxLength: 12 });
  it("terms encode to UTF-8 like Buffer does, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.oneof(anyString, fc.constantFrom("\ud800", "a\udfff", "😀", "\uffff", "\u{10ffff}")), (t) => {
        expect(Buffer.from(termBytes(t)).equals(Buffer.from(t, "utf8"))).toBe(true);
        expect(termString(termBytes(t))).toBe(Buffer.from(t, "utf8").toString("utf8"));
      }),
      { numRuns: 500 },
    );
  });

  it("terms sort in UTF-8 byte order (SQLite's BINARY collation), not UTF-16 order", () => {
    expect(compareTerms("\uffff", "😀")).toBeLessThan(0); // "\uffff" > "😀" in UTF-16
    fc.assert(
      fc.property(anyString, anyString, (x, y) => {
        const want = Math.sign(Buffer.compare(Buffer.from(x, "utf8"), Buffer.from(y, "utf8")));
        const wellFormed = (t: string): boolean => !/[\ud800-\udfff]/.test(t.replace(/[\ud800-\udbff][\udc00-\udfff]/g, ""));
        if (wellFormed(x) && wellFormed(y)) expect(Math.sign(compareTerms(x, y))).toBe(want);
      }),
      { numRuns: 1000 },
    );
  });
});

describe("PostingsIndex vs brute-force BM25", () => {
  it("agrees on random corpora through flushes, merges, removals, compactions and re-adds", () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer(),
          flushThreshold: fc.integer({ min: 1, max: 40 }),
          mergeFactor: fc.integer({ min: 2, max: 4 }),
          vocab: fc.integer({ min: 3, max: 300 }),
          ops: fc.integer({ min: 20, max: 400 }),
          unicode: fc.boolean(),
          // No cache, or the default one.
          cacheBytes: fc.constantFrom(0, undefined),
        }),
        ({ seed, flushThreshold, mergeFactor, vocab, ops, unicode, cacheBytes }) => {
          const rand = mulberry32(seed);
          const term = zipf(rand, vocab, unicode);
          const db = openDb();
          const index = new PostingsIndex(db, { flushThreshold, mergeFactor, cacheBytes });
          const ref = new Reference();
          let nextRowid = 1;
          const ctx = `seed=${seed} flush=${flushThreshold} merge=${mergeFactor} vocab=${vocab} unicode=${unicode} cache=${cacheBytes}`;
          for (let i = 0; i < ops; i++) {
            const r = rand();
            const live = [...ref.docs.keys()];
            if (r < 0.25 && live.length > 0) {
              // Remove, sometimes re-adding the same rowid with new tokens.
              const victim = live[Math.floor(rand() * live.length)]!;
              db.transaction(() => expect(index.remove(victim)).toBe(true)).immediate();
              ref.docs.delete(victim);
              if (rand() < 0.3) {
                const toks = randomDoc(rand, term, 30);
                db.transaction(() => index.add(victim, toks)).immediate();
                ref.docs.set(victim, toks);
              }
            } else {
              // Usually a new (larger) rowid; sometimes a reused one below the maximum.
              let rowid = nextRowid++;
              if (rand() < 0.1) {
                const candidate = Math.floor(rand() * nextRowid);
                if (!ref.docs.has(candidate)) rowid = candidate;
              }
              const toks = randomDoc(rand, term, 40);
              db.transaction(() => index.add(rowid, toks)).immediate();
              ref.docs.set(rowid, toks);
            }
            if (i % 25 === 24) checkQueries(index, ref, rand, term, vocab, 3, ctx, unicode);
          }
          checkQueries(index, ref, rand, term, vocab, 15, ctx, unicode);
          const st = index.stats();
          const rs = ref.stats();
          expect(st.docs).toBe(rs.docs);
          expect(close(st.avgdl, rs.avgdl)).toBe(true);
          expect(st.terms).toBe(rs.terms);
        },
      ),
      { numRuns: 40 },
    );
  });

  it.each([
    // A cache that holds only a few long lists (constant eviction), and the default one.
    { unicode: false, vocab: 400, docs: 6000, flushThreshold: 700, mergeFactor: 3, cacheBytes: 40_000 },
    { unicode: true, vocab: 3000, docs: 10000, flushThreshold: 3000, mergeFactor: 3, cacheBytes: undefined },
  ])("agrees on a larger corpus with long postings lists and many term leaves (%o)", ({ unicode, vocab, docs, flushThreshold, mergeFactor, cacheBytes }) => {
    const rand = mulberry32(7);
    const term = zipf(rand, vocab, unicode);
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold, mergeFactor, cacheBytes });
    const ref = new Reference();
    db.transaction(() => {
      for (let rowid = 1; rowid <= docs; rowid++) {
        const toks = randomDoc(rand, term, 60);
        index.add(rowid, toks);
        ref.docs.set(rowid, toks);
      }
    }).immediate();
    db.transaction(() => {
      for (let rowid = 3; rowid <= docs; rowid += 7) {
        index.remove(rowid);
        ref.docs.delete(rowid);
      }
    }).immediate();
    for (let q = 0; q < 60; q++) {
      const terms = randomQuery(rand, term, vocab, unicode);
      const all = ref.scores(terms, 0.9, 0.4);
      for (const k of [1, 10, 100]) {
        expectSameTopK(index.search(terms, k), ref.search(terms, k, 0.9, 0.4, undefined, all), all, `q=${JSON.stringify(terms)} k=${k}`);
      }
    }
    // Single very common terms: pure block-max territory.
    for (const t of [0, 1, 2].map((i) => termName(i, unicode))) {
      const all = ref.scores([t], 0.9, 0.4);
      expectSameTopK(index.search([t], 10), ref.search([t], 10), all, t);
    }
    // The layout really is what this test means to exercise.
    const leaves = db.prepare("SELECT seg, count(*) AS n FROM bm25_leaves GROUP BY seg ORDER BY n DESC").get() as { n: number };
    const lists = db.prepare("SELECT count(*) FROM bm25_lists").pluck().get() as number;
    expect(lists).toBeGreaterThan(0);
    if (unicode) expect(leaves.n).toBeGreaterThan(10);
    expect(index.stats()).toEqual({ ...ref.stats(), avgdl: expect.closeTo(ref.stats().avgdl, 9) });
  });
});

describe("pruning paths", () => {
  it("skips windows and blocks that cannot compete, and resumes exactly inside a later block", () => {
    // One 20k-document segment. A few short documents repeat "x" or "y"; all
    // others are long and hold each once. With k1 = 3, b = 1 (little
    // saturation) whole windows between the strong documents cannot compete
    // and are skipped on block bounds, and scoring resumes in blocks that
    // straddle a window boundary.
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold: 20_000 });
    const ref = new Reference();
    const filler = Array.from({ length: 200 }, (_, i) => `w${i}`);
    const strong = (r: number): boolean => r < 40 || (r >= 10_050 && r < 10_060);
    db.transaction(() => {
      for (let rowid = 0; rowid < 20_000; rowid++) {
        const toks = strong(rowid) ? new Array<string>(10).fill(rowid % 2 ? "x" : "y") : ["x", "y", "z", ...filler];
        index.add(rowid, toks);
        ref.docs.set(rowid, toks);
      }
    }).immediate();
    expect(db.prepare("SELECT count(*) FROM bm25_segments").pluck().get()).toBe(1);
    for (const [k1, b] of [
      [3, 1],
      [0.9, 0.4],
    ] as const) {
      for (const q of [["x", "y"], ["x", "y", "z"], ["x"], ["z", "w3"], ["x", "y", "z", "w5", "w7"]]) {
        for (const k of [1, 10, 45]) {
          const all = ref.scores(q, k1, b);
          expectSameTopK(index.search(q, k, { k1, b }), ref.search(q, k, k1, b, undefined, all), all, `${q} k=${k} k1=${k1} b=${b}`);
        }
      }
    }
  });
});

describe("transactions and connections", () => {
  function seeded(db: Db, ref: Reference, count: number, opts = { flushThreshold: 8, mergeFactor: 2 }): PostingsIndex {
    const index = new PostingsIndex(db, opts);
    const rand = mulberry32(11);
    const term = zipf(rand, 50);
    for (let rowid = 1; rowid <= count; rowid++) {
      const toks = randomDoc(rand, term, 20);
      db.transaction(() => index.add(rowid, toks)).immediate();
      ref.docs.set(rowid, toks);
    }
    return index;
  }

  it("a rolled-back outer transaction leaves the index exactly as before", () => {
    const db = openDb();
    const ref = new Reference();
    const index = seeded(db, ref, 37);
    const queries = [["t0", "t3", "t9"], ["t1"], ["t5", "t7", "t11", "t2", "t40"]];
    const before = queries.map((q) => index.search(q, 20));
    const statsBefore = index.stats();
    const tables = (): unknown =>
      ["bm25_state", "bm25_pending", "bm25_segments", "bm25_leaves", "bm25_lists", "bm25_forward", "bm25_deleted", "bm25_dead_terms"].map(
        (t) => db.prepare(`SELECT * FROM ${t} ORDER BY 1`).all(),
      );
    const snapshot = tables();
    const tx = db.transaction(() => {
      // Enough work to flush, merge, tombstone and compact; queries inside see it.
      for (let rowid = 100; rowid < 140; rowid++) index.add(rowid, ["t0", "t3", "fresh", "fresh"]);
      for (let rowid = 1; rowid <= 30; rowid++) index.remove(rowid);
      expect(index.search(["fresh"], 5).length).toBe(5);
      expect(index.stats().docs).toBe(37 - 30 + 40);
      throw new Error("roll back");
    });
    expect(() => tx.immediate()).toThrow("roll back");
    expect(tables()).toEqual(snapshot);
    expect(index.stats()).toEqual(statsBefore);
    expect(queries.map((q) => index.search(q, 20))).toEqual(before);
    expect(index.search(["fresh"], 5)).toEqual([]);
    // And it keeps working after the rollback (caches must not trust rolled-back state).
    db.transaction(() => index.add(500, ["fresh", "t0"])).immediate();
    ref.docs.set(500, ["fresh", "t0"]);
    for (const q of [...queries, ["fresh"]]) {
      expectSameTopK(index.search(q, 20), ref.search(q, 20), ref.scores(q, 0.9, 0.4), JSON.stringify(q));
    }
  });

  it("a second connection sees each commit without reopening, and never uncommitted work", () => {
    const path = join(work.dir, "shared.sqlite3");
    const writerDb = openDb(path);
    // The reader connects before any bm25 table exists, read-only, as a separate process would.
    writerDb.exec("CREATE TABLE other (x INTEGER) STRICT");
    const readerDb = openDb(path, true);
    const reader = new PostingsIndex(readerDb);
    expect(reader.search(["t0"], 5)).toEqual([]);
    expect(reader.stats()).toEqual({ docs: 0, avgdl: 0, terms: 0 });

    const ref = new Reference();
    const writer = seeded(writerDb, ref, 30);
    const q = ["t0", "t1", "t4", "t8"];
    expectSameTopK(reader.search(q, 10), ref.search(q, 10), ref.scores(q, 0.9, 0.4), "after seeding");

    // Uncommitted work is invisible to the reader; committed work appears.
    writerDb.prepare("BEGIN IMMEDIATE").run();
    writer.add(1000, ["t0", "t0", "t0", "t0", "t0", "t0"]);
    writer.remove(2);
    const statsDuring = reader.stats();
    expect(statsDuring.docs).toBe(30);
    expectSameTopK(reader.search(q, 10), ref.search(q, 10), ref.scores(q, 0.9, 0.4), "during");
    writerDb.prepare("COMMIT").run();
    ref.docs.set(1000, ["t0", "t0", "t0", "t0", "t0", "t0"]);
    ref.docs.delete(2);
    expect(reader.stats().docs).toBe(30);
    expectSameTopK(reader.search(q, 10), ref.search(q, 10), ref.scores(q, 0.9, 0.4), "after commit");
    expect(reader.search(["t0"], 1)[0]?.rowid).toBe(1000);

    // Many more commits, flushes and merges later, the reader is still exact.
    for (let rowid = 2000; rowid < 2100; rowid++) {
      writerDb.transaction(() => writer.add(rowid, ["t1", `u${rowid % 7}`])).immediate();
      ref.docs.set(rowid, ["t1", `u${rowid % 7}`]);
    }
    for (const query of [q, ["u3", "t1"], ["u6"]]) {
      expectSameTopK(reader.search(query, 15), ref.search(query, 15), ref.scores(query, 0.9, 0.4), JSON.stringify(query));
    }
    expect(reader.stats()).toEqual(ref.stats());
  });

  it("two writers on one file (as two processes) interleave adds, removals, flushes and merges", () => {
    const path = join(work.dir, "two-writers.sqlite3");
    const dbA = openDb(path);
    const dbB = openDb(path);
    const a = new PostingsIndex(dbA, { flushThreshold: 5, mergeFactor: 2 });
    const b = new PostingsIndex(dbB, { flushThreshold: 7, mergeFactor: 3 });
    const ref = new Reference();
    const rand = mulberry32(23);
    const term = zipf(rand, 40);
    for (let rowid = 1; rowid <= 150; rowid++) {
      // Each writer flushes pending rows the other one wrote.
      const [db, index] = rand() < 0.5 ? [dbA, a] : [dbB, b];
      const toks = randomDoc(rand, term, 15);
      db.transaction(() => index.add(rowid, toks)).immediate();
      ref.docs.set(rowid, toks);
      if (rowid % 9 === 0) {
        const victim = [...ref.docs.keys()][Math.floor(rand() * ref.docs.size)]!;
        db.transaction(() => expect(index.remove(victim)).toBe(true)).immediate();
        ref.docs.delete(victim);
      }
      if (rowid % 10 === 0) {
        for (const reader of [a, b]) checkQueries(reader, ref, rand, term, 40, 2, `rowid=${rowid}`, false);
      }
    }
    expect(a.stats()).toEqual(b.stats());
    expect(a.stats()).toEqual({ ...ref.stats(), avgdl: expect.closeTo(ref.stats().avgdl, 9) });
  });

  it("a rolled-back add is never confused with what another writer later stores under that rowid", () => {
    const path = join(work.dir, "rollback-foreign.sqlite3");
    const dbA = openDb(path);
    const dbB = openDb(path);
    const a = new PostingsIndex(dbA, { flushThreshold: 3 });
    const b = new PostingsIndex(dbB, { flushThreshold: 3 });
    expect(() =>
      dbA
        .transaction(() => {
          a.add(1, ["apple", "apple"]);
          throw new Error("roll back");
        })
        .immediate(),
    ).toThrow("roll back");
    dbB.transaction(() => b.add(1, ["pear"])).immediate();
    // A flushes the pending rows (B's row 1 among them).
    dbA.transaction(() => {
      a.add(2, ["fig"]);
      a.add(3, ["fig"]);
    }).immediate();
    expect(dbA.prepare("SELECT count(*) FROM bm25_pending").pluck().get()).toBe(0);
    expect(a.search(["apple"], 5)).toEqual([]);
    expect(a.search(["pear"], 5).map((h) => h.rowid)).toEqual([1]);
  });

  it("persists: a reopened file answers the same without rebuilding", () => {
    const path = join(work.dir, "persist.sqlite3");
    const ref = new Reference();
    const db = openDb(path);
    seeded(db, ref, 45);
    db.close();
    const again = new PostingsIndex(openDb(path));
    for (const q of [["t0", "t2"], ["t7", "t13", "t21"]]) {
      expectSameTopK(again.search(q, 10), ref.search(q, 10), ref.scores(q, 0.9, 0.4), JSON.stringify(q));
    }
  });
});

describe("filters and parameters", () => {
  function corpus(count: number): { index: PostingsIndex; ref: Reference; db: Db } {
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold: 16, mergeFactor: 2 });
    const ref = new Reference();
    const rand = mulberry32(5);
    const term = zipf(rand, 30);
    db.transaction(() => {
      for (let rowid = 1; rowid <= count; rowid++) {
        const toks = randomDoc(rand, term, 25);
        index.add(rowid, toks);
        ref.docs.set(rowid, toks);
      }
    }).immediate();
    return { index, ref, db };
  }

  it("`allow` filters inside the query: k allowed hits, not a trimmed short list", () => {
    const { index, ref } = corpus(300);
    const q = ["t0", "t1", "t2", "t5"];
    const unfiltered = index.search(q, 10);
    const banned = new Set(unfiltered.map((h) => h.rowid));
    const asked: number[] = [];
    const allow = (rowid: number): boolean => {
      asked.push(rowid);
      return !banned.has(rowid) && rowid % 3 !== 0;
    };
    const hits = index.search(q, 10, { allow });
    expect(hits).toHaveLength(10);
    for (const h of hits) expect(allow(h.rowid)).toBe(true);
    expectSameTopK(hits, ref.search(q, 10, 0.9, 0.4, allow), ref.scores(q, 0.9, 0.4), "allow");
    expect(asked.length).toBeGreaterThan(0);
    // Nothing allowed: nothing returned.
    expect(index.search(q, 10, { allow: () => false })).toEqual([]);
  });

  it("k1 and b come from the constructor and can be overridden per query", () => {
    const { index, ref, db } = corpus(200);
    const q = ["t0", "t3", "t6", "t9", "t12"];
    for (const [k1, b] of [
      [1.2, 0.75],
      [0, 0.5],
      [2, 0],
      [0.5, 1],
    ] as const) {
      expectSameTopK(index.search(q, 15, { k1, b }), ref.search(q, 15, k1, b), ref.scores(q, k1, b), `k1=${k1} b=${b}`);
      const other = new PostingsIndex(db, { k1, b });
      expectSameTopK(other.search(q, 15), ref.search(q, 15, k1, b), ref.scores(q, k1, b), `ctor k1=${k1} b=${b}`);
    }
    // Different parameters really rank differently here.
    const a = index.search(q, 15, { k1: 2, b: 0 }).map((h) => h.rowid);
    const c = index.search(q, 15, { k1: 0.5, b: 1 }).map((h) => h.rowid);
    expect(a).not.toEqual(c);
    expect(() => index.search(q, 5, { k1: -1 })).toThrow(GroundkitError);
    expect(() => index.search(q, 5, { b: 1.5 })).toThrow(GroundkitError);
    expect(() => new PostingsIndex(db, { b: Number.NaN })).toThrow(GroundkitError);
  });

  it("a query that throws part-way through scoring leaves the next queries' scores exact", () => {
    // Scoring memory is reused from query to query (store/sqlite/scoring-scratch.ts); one abandoned
    // mid-window or mid-pending-pass must not carry partial sums or set bits into later queries.
    const { index, ref } = corpus(300);
    const queries = [["t0", "t1", "t2", "t5"], ["t1", "t3"], ["t0", "t4", "t7", "t8", "t9"], ["t2"]];
    let thrown = 0;
    for (const throwAt of [1, 2, 3, 5, 8, 13, 40]) {
      let calls = 0;
      const failing = (): boolean => {
        if (++calls === throwAt) throw new Error("filter failed");
        return true;
      };
      for (const q of queries) {
        calls = 0;
        try {
          index.search(q, 10, { allow: failing });
          continue; // the query asked fewer times
        } catch (err) {
          expect((err as Error).message).toBe("filter failed");
          thrown++;
        }
        for (const next of queries) {
          expectSameTopK(index.search(next, 10), ref.search(next, 10), ref.scores(next, 0.9, 0.4), `after a throw at call ${throwAt} of ${q.join(" ")}`);
        }
      }
    }
    expect(thrown).toBeGreaterThan(15);
  });
});

describe("query term frequency", () => {
  it("a term the query repeats weighs that many times, pending and in segments alike", () => {
    for (const flushThreshold of [1000, 1]) {
      const db = openDb();
      const index = new PostingsIndex(db, { flushThreshold });
      const ref = new Reference();
      const docs: Array<[number, string[]]> = [
        [1, ["x", "pad", "pad"]],
        [2, ["y", "pad", "pad"]],
        [3, ["pad", "pad", "pad"]],
        [4, ["pad", "z", "pad"]],
      ];
      db.transaction(() => {
        for (const [rowid, toks] of docs) {
          index.add(rowid, toks);
          ref.docs.set(rowid, toks);
        }
      }).immediate();
      // x and y are equally rare: once each, the tie breaks on rowid; "y y x" puts 2 first.
      expect(index.search(["x", "y"], 2).map((h) => h.rowid)).toEqual([1, 2]);
      const hits = index.search(["y", "y", "x"], 2);
      expect(hits.map((h) => h.rowid), `flushThreshold=${flushThreshold}`).toEqual([2, 1]);
      expect(close(hits[0]!.score, 2 * index.search(["y"], 1)[0]!.score)).toBe(true);
      const q = ["y", "x", "y", "z", "y"];
      expectSameTopK(index.search(q, 3), ref.search(q, 3), ref.scores(q, 0.9, 0.4), `flushThreshold=${flushThreshold}`);
    }
  });
});

describe("edge cases", () => {
  it("empty index, empty and unknown terms, k <= 0", () => {
    const db = openDb();
    const index = new PostingsIndex(db);
    expect(index.search(["anything"], 10)).toEqual([]);
    expect(index.stats()).toEqual({ docs: 0, avgdl: 0, terms: 0 });
    db.transaction(() => {
      index.add(1, ["alpha", "beta"]);
      index.add(2, ["beta", "gamma", "gamma"]);
      index.add(3, []);
    }).immediate();
    expect(index.search([], 10)).toEqual([]);
    expect(index.search([""], 10)).toEqual([]);
    expect(index.search(["nope", "nada"], 10)).toEqual([]);
    expect(index.search(["alpha"], 0)).toEqual([]);
    expect(index.search(["alpha", "nope", "alpha"], 10).map((h) => h.rowid)).toEqual([1]);
    expect(index.stats()).toEqual({ docs: 3, avgdl: 5 / 3, terms: 3 });
    // A term that occurs in every document still scores positive.
    db.transaction(() => index.remove(3)).immediate();
    const hits = index.search(["beta"], 10);
    expect(hits.map((h) => h.rowid)).toEqual([1, 2]);
    for (const h of hits) expect(h.score).toBeGreaterThan(0);
  });

  it("removal is idempotent, unknown rowids are a no-op, a live rowid cannot be added twice", () => {
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold: 2 });
    db.transaction(() => {
      for (let r = 1; r <= 5; r++) index.add(r, ["x", `y${r}`]);
    }).immediate();
    expect(() => db.transaction(() => index.add(3, ["z"])).immediate()).toThrow(GroundkitError);
    expect(() => db.transaction(() => index.add(5, ["z"])).immediate()).toThrow(GroundkitError);
    const inTx = (fn: () => void): (() => void) => () => db.transaction(fn).immediate();
    expect(inTx(() => index.add(-1, ["z"]))).toThrow(/rowid/);
    expect(inTx(() => index.add(1.5, ["z"]))).toThrow(/rowid/);
    expect(inTx(() => index.add(9, ["ok", ""]))).toThrow(/tokens/);
    expect(inTx(() => index.add(9, ["a\0b"]))).toThrow(/tokens/);
    // Outside a transaction several rows could commit separately: refused, nothing written.
    expect(() => index.add(9, ["ok"])).toThrow(/transaction/);
    expect(() => index.remove(1)).toThrow(/transaction/);
    expect(index.stats().docs).toBe(5);
    db.transaction(() => {
      expect(index.remove(3)).toBe(true);
      expect(index.remove(3)).toBe(false);
      expect(index.remove(5)).toBe(true);
      expect(index.remove(42)).toBe(false);
    }).immediate();
    expect(index.stats().docs).toBe(3);
    expect(index.search(["y3"], 5)).toEqual([]);
    db.transaction(() => index.add(3, ["y3"])).immediate();
    expect(index.search(["y3"], 5).map((h) => h.rowid)).toEqual([3]);
    // Removing every document of segments drops them entirely.
    db.transaction(() => {
      for (const r of [1, 2, 3, 4]) index.remove(r);
    }).immediate();
    expect(index.stats()).toEqual({ docs: 0, avgdl: 0, terms: 0 });
    expect(index.search(["x"], 5)).toEqual([]);
  });

  it("terms with unpaired surrogates are found (both sides read them as U+FFFD)", () => {
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold: 2 });
    db.transaction(() => {
      index.add(1, ["a\ud800", "b"]);
      index.add(2, ["b"]);
      index.add(3, ["\udfffz", "b"]);
    }).immediate();
    expect(index.search(["a\ud800"], 5).map((h) => h.rowid)).toEqual([1]);
    expect(index.search(["a\udbff"], 5).map((h) => h.rowid)).toEqual([1]);
    expect(index.search(["\udfffz"], 5).map((h) => h.rowid)).toEqual([3]);
  });

  it("opening an existing index does not need the write lock", () => {
    const path = join(work.dir, "locked.sqlite3");
    const db = openDb(path);
    new PostingsIndex(db);
    const other = openDb(path);
    other.pragma("busy_timeout = 0");
    db.prepare("BEGIN IMMEDIATE").run();
    try {
      expect(() => new PostingsIndex(other).search(["x"], 3)).not.toThrow();
    } finally {
      db.prepare("ROLLBACK").run();
    }
  });

  it("refuses a file whose bm25 format is newer", () => {
    const db = openDb();
    const index = new PostingsIndex(db);
    db.prepare("UPDATE bm25_state SET format = format + 1").run();
    expect(() => index.search(["x"], 3)).toThrow(expect.objectContaining({ code: "STORE_NEWER" }));
  });
});

describe("rounding", () => {
  it("scores a document in a segment and its twin still pending exactly alike", () => {
    const db = openDb();
    const index = new PostingsIndex(db, { flushThreshold: 500 });
    // 500 documents of random length and tf flush into a segment; their twins (rowid + 10000) are scored while pending.
    const rand = mulberry32(5);
    const shapes = Array.from({ length: 500 }, () => ({ tf: 1 + Math.floor(rand() * 20), rest: 1 + Math.floor(rand() * 700) }));
    const tokens = (i: number): string[] => [...Array<string>(shapes[i]!.tf).fill("alpha"), ...Array<string>(shapes[i]!.rest).fill(`filler${i % 13}`)];
    db.transaction(() => {
      for (let i = 0; i < 500; i++) index.add(i, tokens(i));
      // One short of the threshold, so they stay pending.
      for (let i = 0; i < 499; i++) index.add(10_000 + i, tokens(i));
    }).immediate();
    const scores = new Map(index.search(["alpha"], 1000).map((h) => [h.rowid, h.score]));
    expect(scores.size).toBe(999);
    // Mathematically equal scores must be bit-equal whichever path scored them (ties then break by rowid).
    const differing = [...Array(499).keys()].filter((i) => scores.get(i) !== scores.get(10_000 + i));
    expect(differing).toEqual([]);
  });
});
