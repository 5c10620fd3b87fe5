/**
 * The on-disk format of the BM25 postings: the `bm25_*` tables, how their
 * row keys are laid out, the statements that read and write them, and the
 * streams that write one segment and read it back. The byte encodings inside
 * the BLOBs (postings blocks, leaves, document tables, forward lists) are in
 * postings-codec.ts. A change to anything here is a change of
 * {@link POSTINGS_FORMAT}.
 *
 * - `bm25_state` holds N, the total length, the pending count and a random
 *   nonce that every write changes (readers validate their caches on it).
 * - `bm25_pending` holds one row per document not yet in a segment: its
 *   distinct terms and tfs as text (`term NUL tf NUL …`).
 * - A segment numbers its documents 0..n-1 in rowid order and stores a
 *   document table (rowid, length) in its `bm25_segments` row, a term
 *   dictionary of front-coded leaves (`bm25_leaves`, ~3.6 KB rows found
 *   through an index on their first term) holding each term's df, bounds and,
 *   when short, its postings; longer postings lists get a `bm25_lists` row of
 *   their own; and forward lists (document -> term ordinals, `bm25_forward`,
 *   one row per block of 128 documents).
 * - Tombstones: `bm25_deleted` marks a segment's removed documents and
 *   `bm25_dead_terms` counts, per (segment, term), the postings they removed.
 * - Row ids pack (segment, number) as segment * 2^28 + number, so a
 *   segment's rows of any table are one id range.
 */
import { GroundkitError } from "../../core/errors.js";
import type { Db } from "./db.js";
import {
  BLOCK_SIZE,
  ByteReader,
  ByteWriter,
  LeafBuilder,
  LeafCursor,
  decodeForward,
  encodeDocTable,
  encodeForward,
  encodePostings,
  skipForward,
  termBytes,
  termString,
} from "./postings-codec.js";
import { countTerms } from "../bm25.js";

/** On-disk format of the bm25_* tables; a file with a newer one is refused. */
export const POSTINGS_FORMAT = 1;

/** Row keys pack (segment, number): segment * KEY_SPAN + ordinal / local doc / block. */
const KEY_SPAN = 2 ** 28;
/** Separator in bm25_pending.data (tokens may not contain it). */
const SEP = "\0";
/** Segment ids stay below this, so that a packed key stays a safe integer. */
export const MAX_SEGMENT_ID = 2 ** 24;
/** A leaf row is closed once it holds this many bytes (one row per 4 KiB page, mostly full). */
const LEAF_TARGET = 3600;
/** Postings longer than this many bytes get their own row instead of sitting in the leaf. */
const INLINE_MAX = 256;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS bm25_state (
    id          INTEGER PRIMARY KEY CHECK (id = 1),
    format      INTEGER NOT NULL,
    docs        INTEGER NOT NULL,  -- live documents (N)
    total_len   INTEGER NOT NULL,  -- sum of their lengths (avgdl = total_len / docs)
    pending     INTEGER NOT NULL,  -- rows in bm25_pending
    next_seg    INTEGER NOT NULL,
    max_seg_doc INTEGER NOT NULL,  -- no segment holds a rowid above this
    nonce       INTEGER NOT NULL   -- random, changed by every write: validates readers' caches
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_pending (
    doc  INTEGER PRIMARY KEY,
    dl   INTEGER NOT NULL,
    data TEXT NOT NULL             -- term NUL tf NUL term NUL tf ...
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_segments (
    id       INTEGER PRIMARY KEY,
    uid      INTEGER NOT NULL,     -- random: caches key immutable segment data on it
    level    INTEGER NOT NULL,
    ndocs    INTEGER NOT NULL,
    dead     INTEGER NOT NULL,
    dead_uid INTEGER NOT NULL,     -- random, changed with every tombstone
    nterms   INTEGER NOT NULL,
    min_doc  INTEGER NOT NULL,
    max_doc  INTEGER NOT NULL,
    docs     BLOB NOT NULL         -- document table (postings-codec.ts)
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_leaves (
    id         INTEGER PRIMARY KEY, -- seg * 2^28 + leaf number
    seg        INTEGER NOT NULL,
    first_term TEXT NOT NULL,
    data       BLOB NOT NULL        -- front-coded terms with df, bounds, small postings (postings-codec.ts)
  ) STRICT;
  CREATE UNIQUE INDEX IF NOT EXISTS bm25_leaves_by_term ON bm25_leaves (seg, first_term);
  CREATE TABLE IF NOT EXISTS bm25_lists (
    id   INTEGER PRIMARY KEY,      -- seg * 2^28 + term ordinal (code point order within the segment)
    data BLOB NOT NULL             -- postings too long to sit in a leaf
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_forward (
    id   INTEGER PRIMARY KEY,      -- seg * 2^28 + block of 128 local documents
    data BLOB NOT NULL
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_deleted (
    id INTEGER PRIMARY KEY         -- seg * 2^28 + local document
  ) STRICT;
  CREATE TABLE IF NOT EXISTS bm25_dead_terms (
    id INTEGER PRIMARY KEY,        -- seg * 2^28 + term ordinal
    n  INTEGER NOT NULL            -- its postings that are tombstoned
  ) STRICT;
  INSERT OR IGNORE INTO bm25_state (id, format, docs, total_len, pending, next_seg, max_seg_doc, nonce)
    VALUES (1, ${POSTINGS_FORMAT}, 0, 0, 0, 1, -1, 0);
`;

/** The bm25_state row. */
export interface StateRow {
  format: number;
  docs: number;
  total_len: number;
  pending: number;
  next_seg: number;
  max_seg_doc: number;
  nonce: number;
}

/** A bm25_segments row, without its document table. */
export interface SegmentRow {
  id: number;
  uid: number;
  level: number;
  ndocs: number;
  dead: number;
  dead_uid: number;
  nterms: number;
  min_doc: number;
  max_doc: number;
}

/** A bm25_pending row. */
export interface PendingRow {
  doc: number;
  dl: number;
  data: string;
}

/** A document's distinct terms and their tfs, and `data`, their bm25_pending encoding. */
export interface TermCounts {
  data: string;
  terms: string[];
  tfs: number[];
}

/** The row id of number `n` (term ordinal, local document, leaf or block) of segment `seg`. */
export function key(seg: number, n: number): number {
  return seg * KEY_SPAN + n;
}

/** A random 48-bit integer: a nonce or uid that a rollback cannot make reappear. */
export function randomId(): number {
  return Math.floor(Math.random() * 2 ** 48);
}

/** Count a document's tokens (non-empty, without NUL) into its bm25_pending encoding. */
export function encodeCounts(tokens: string[]): TermCounts {
  const { terms, tfs } = countTerms(tokens);
  const parts: string[] = [];
  for (let i = 0; i < terms.length; i++) parts.push(terms[i]!, String(tfs[i]!));
  return { data: parts.join(SEP), terms, tfs };
}

/** Parse a bm25_pending `data` value. */
export function parseCounts(data: string): TermCounts {
  const terms: string[] = [];
  const tfs: number[] = [];
  if (data !== "") {
    const parts = data.split(SEP);
    for (let j = 0; j < parts.length; j += 2) {
      terms.push(parts[j]!);
      tfs.push(Number(parts[j + 1]));
    }
  }
  return { data, terms, tfs };
}

/**
 * The part of a prepared better-sqlite3 statement the postings use, declared
 * here because the library's own statement type cannot be named in our
 * declaration files.
 */
export interface Statement {
  run(...params: unknown[]): unknown;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
}

/** The prepared statements over the bm25_* tables, by name. */
export type Statements = ReturnType<typeof prepareStatements>;

function prepareStatements(db: Db) {
  const cols = "id, uid, level, ndocs, dead, dead_uid, nterms, min_doc, max_doc";
  const prepare = (sql: string): Statement => db.prepare(sql);
  /** A statement that returns its first column's value instead of a row object. */
  const pluck = (sql: string): Statement => db.prepare(sql).pluck();
  return {
    getState: prepare("SELECT format, docs, total_len, pending, next_seg, max_seg_doc, nonce FROM bm25_state WHERE id = 1"),
    bumpAdd: pluck(
      "UPDATE bm25_state SET docs = docs + 1, total_len = total_len + ?, pending = pending + 1, nonce = ? WHERE id = 1 RETURNING pending",
    ),
    bumpRemove: prepare(
      "UPDATE bm25_state SET docs = docs - 1, total_len = total_len - ?, pending = pending - ?, nonce = ? WHERE id = 1",
    ),
    pendingFlushed: prepare("UPDATE bm25_state SET pending = 0, nonce = ? WHERE id = 1"),
    touch: prepare("UPDATE bm25_state SET nonce = ? WHERE id = 1"),
    allocSegment: pluck("UPDATE bm25_state SET next_seg = next_seg + 1 WHERE id = 1 RETURNING next_seg - 1"),
    raiseMaxSegDoc: prepare("UPDATE bm25_state SET max_seg_doc = max(max_seg_doc, ?) WHERE id = 1"),
    insertPending: prepare("INSERT INTO bm25_pending (doc, dl, data) VALUES (?, ?, ?)"),
    deletePending: pluck("DELETE FROM bm25_pending WHERE doc = ? RETURNING dl"),
    allPending: prepare("SELECT doc, dl, data FROM bm25_pending ORDER BY doc"),
    clearPending: prepare("DELETE FROM bm25_pending"),
    listSegments: prepare(`SELECT ${cols} FROM bm25_segments ORDER BY id`),
    getSegment: prepare(`SELECT ${cols} FROM bm25_segments WHERE id = ?`),
    segmentsCovering: prepare(`SELECT ${cols} FROM bm25_segments WHERE min_doc <= ? AND max_doc >= ? ORDER BY id`),
    segmentDocs: pluck("SELECT docs FROM bm25_segments WHERE id = ?"),
    insertSegment: prepare(`INSERT INTO bm25_segments (${cols}, docs) VALUES (?, ?, ?, ?, 0, 0, ?, ?, ?, ?)`),
    markDead: prepare("UPDATE bm25_segments SET dead = dead + 1, dead_uid = ? WHERE id = ?"),
    deleteSegment: prepare("DELETE FROM bm25_segments WHERE id = ?"),
    leafFor: pluck("SELECT data FROM bm25_leaves WHERE seg = ? AND first_term <= ? ORDER BY first_term DESC LIMIT 1"),
    leafRange: prepare("SELECT id, data FROM bm25_leaves WHERE id >= ? AND id < ? ORDER BY id LIMIT 16"),
    insertLeaf: prepare("INSERT INTO bm25_leaves (id, seg, first_term, data) VALUES (?, ?, ?, ?)"),
    deleteLeafRange: prepare("DELETE FROM bm25_leaves WHERE id >= ? AND id < ?"),
    listData: pluck("SELECT data FROM bm25_lists WHERE id = ?"),
    insertList: prepare("INSERT INTO bm25_lists (id, data) VALUES (?, ?)"),
    deleteListRange: prepare("DELETE FROM bm25_lists WHERE id >= ? AND id < ?"),
    forwardBlock: pluck("SELECT data FROM bm25_forward WHERE id = ?"),
    insertForward: prepare("INSERT INTO bm25_forward (id, data) VALUES (?, ?)"),
    deleteForwardRange: prepare("DELETE FROM bm25_forward WHERE id >= ? AND id < ?"),
    isDeleted: pluck("SELECT 1 FROM bm25_deleted WHERE id = ?"),
    insertDeleted: prepare("INSERT OR IGNORE INTO bm25_deleted (id) VALUES (?)"),
    deletedRange: pluck("SELECT id FROM bm25_deleted WHERE id >= ? AND id < ?"),
    deleteDeletedRange: prepare("DELETE FROM bm25_deleted WHERE id >= ? AND id < ?"),
    deadTermInc: prepare("INSERT INTO bm25_dead_terms (id, n) VALUES (?, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1"),
    deadTermCount: pluck("SELECT n FROM bm25_dead_terms WHERE id = ?"),
    deleteDeadTermRange: prepare("DELETE FROM bm25_dead_terms WHERE id >= ? AND id < ?"),
    deadTermRange: prepare("SELECT id, n FROM bm25_dead_terms WHERE id >= ? AND id < ?"),
  };
}

/** The bm25_* tables of one connection: created on demand, their statements prepared once they exist. */
export class PostingsTables {
  private stmts: Statements | undefined;

  constructor(readonly db: Db) {}

  exist(): boolean {
    return this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'bm25_state'").get() !== undefined;
  }

  /** Create the tables, in the caller's transaction if one is open. */
  create(): void {
    if (this.db.inTransaction) this.db.exec(SCHEMA);
    else this.db.transaction(() => this.db.exec(SCHEMA)).immediate();
  }

  /** Statements, once the tables exist (a read-only connection may see them appear later). */
  statements(): Statements | undefined {
    if (this.stmts) return this.stmts;
    if (!this.exist()) return undefined;
    this.stmts = prepareStatements(this.db);
    return this.stmts;
  }
}

/** The state row; refuses a format newer than this code reads. */
export function readState(s: Statements): StateRow {
  const st = s.getState.get() as StateRow | undefined;
  if (!st) throw new GroundkitError("STORE_CORRUPT", "BM25 postings: the bm25_state row is missing.");
  if (st.format > POSTINGS_FORMAT) {
    throw new GroundkitError(
      "STORE_NEWER",
      `The BM25 index has format ${st.format}; this groundkit reads up to format ${POSTINGS_FORMAT}.`,
    );
  }
  return st;
}

/** The leaf entry of `term` in segment `seg`, positioned on it; undefined when the segment lacks the term. */
export function seekTerm(s: Statements, seg: number, term: string): LeafCursor | undefined {
  const leaf = s.leafFor.get(seg, term) as Uint8Array | undefined;
  if (leaf === undefined) return undefined;
  const c = new LeafCursor(leaf);
  return c.seek(termBytes(term)) ? c : undefined;
}

/** The postings of the term `c` is on: inline in its leaf, or a bm25_lists row of its own. */
export function termPostings(s: Statements, seg: number, c: LeafCursor): Uint8Array {
  const inline = c.inline();
  if (inline) return inline;
  const data = s.listData.get(key(seg, c.ord)) as Uint8Array | undefined;
  if (data === undefined) {
    throw new GroundkitError("STORE_CORRUPT", `BM25 postings: list ${c.ord} of segment ${seg} is missing.`);
  }
  return data;
}

/** Streams one segment's forward lists in local document order. */
export class ForwardReader {
  private block = -1;
  private reader: ByteReader | undefined;
  private nextLocal = 0;

  constructor(
    private readonly stmts: Statements,
    private readonly seg: number,
  ) {}

  /** The ordinals of local document `local` (>= every earlier call's). */
  read(local: number, out: number[]): number {
    const block = Math.floor(local / BLOCK_SIZE);
    if (block !== this.block) {
      const data = this.stmts.forwardBlock.get(key(this.seg, block)) as Uint8Array | undefined;
      if (data === undefined) {
        throw new GroundkitError("STORE_CORRUPT", `BM25 postings: forward block ${block} of segment ${this.seg} is missing.`);
      }
      this.block = block;
      this.reader = new ByteReader(data);
      this.nextLocal = block * BLOCK_SIZE;
    }
    const r = this.reader!;
    while (this.nextLocal < local) {
      skipForward(r);
      this.nextLocal++;
    }
    this.nextLocal++;
    return decodeForward(r, out);
  }
}

/** Writes one new segment: terms in ascending order, then forward lists in local order. */
export class SegmentWriter {
  nterms = 0;
  private readonly leaf = new LeafBuilder();
  private leaves = 0;
  private readonly forward = new ByteWriter(16384);
  private forwardDocs = 0;

  constructor(
    private readonly stmts: Statements,
    readonly seg: number,
    private readonly rowids: Float64Array,
    private readonly dls: Int32Array,
  ) {}

  /** Add a term (UTF-8, after every earlier one) with its postings (local docs ascending); returns its ordinal. */
  addTerm(term: Uint8Array, docs: ArrayLike<number>, tfs: ArrayLike<number>, df: number): number {
    const ord = this.nterms++;
    if (ord >= KEY_SPAN) throw new GroundkitError("INTERNAL", "BM25 postings: too many terms in one segment.");
    const enc = encodePostings(docs, tfs, df, this.dls);
    let inline: Uint8Array | undefined = enc.data;
    if (enc.data.length > INLINE_MAX) {
      this.stmts.insertList.run(key(this.seg, ord), enc.data);
      inline = undefined;
    }
    if (this.leaf.length >= LEAF_TARGET) this.flushLeaf();
    this.leaf.add(term, ord, df, enc.maxTf, enc.minDl, inline);
    return ord;
  }

  private flushLeaf(): void {
    const first = this.leaf.first;
    if (first === undefined) return;
    this.stmts.insertLeaf.run(key(this.seg, this.leaves++), this.seg, termString(first), this.leaf.take());
  }

  /** Add the next document's ascending term ordinals. */
  addForward(ords: ArrayLike<number>, count: number): void {
    encodeForward(this.forward, ords, count);
    if (++this.forwardDocs % BLOCK_SIZE === 0) this.flushForward();
  }

  private flushForward(): void {
    if (this.forward.length === 0) return;
    const block = Math.ceil(this.forwardDocs / BLOCK_SIZE) - 1;
    this.stmts.insertForward.run(key(this.seg, block), this.forward.toBytes());
    this.forward.reset();
  }

  finish(level: number): void {
    this.flushLeaf();
    this.flushForward();
    const n = this.rowids.length;
    this.stmts.insertSegment.run(
      this.seg,
      randomId(),
      level,
      n,
      this.nterms,
      this.rowids[0]!,
      this.rowids[n - 1]!,
      encodeDocTable(this.rowids, this.dls, n),
    );
    this.stmts.raiseMaxSegDoc.run(this.rowids[n - 1]!);
  }
}

/** Streams one segment's terms in order, leaf by leaf. */
export class TermStream {
  private leaves: Array<{ id: number; data: Uint8Array }> = [];
  private next_ = 0;
  private nextId: number;
  private readonly endId: number;
  /** The current term (valid after `next` returned true). */
  cursor: LeafCursor | undefined;

  constructor(
    private readonly stmts: Statements,
    readonly seg: number,
  ) {
    this.nextId = key(seg, 0);
    this.endId = key(seg + 1, 0);
  }

  /** Advance to the next term; false at the end. */
  next(): boolean {
    for (;;) {
      if (this.cursor?.next()) return true;
      if (this.next_ >= this.leaves.length) {
        this.leaves = this.stmts.leafRange.all(this.nextId, this.endId) as Array<{ id: number; data: Uint8Array }>;
        this.next_ = 0;
        if (this.leaves.length === 0) {
          this.cursor = undefined;
          return false;
        }
        this.nextId = this.leaves[this.leaves.length - 1]!.id + 1;
      }
      this.cursor = new LeafCursor(this.leaves[this.next_++]!.data);
    }
  }

  /** The current term's postings. */
  postings(): Uint8Array {
    return termPostings(this.stmts, this.seg, this.cursor!);
  }
}
