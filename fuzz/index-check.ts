/**
 * Inspecting a collection's files directly (SQLite and the snapshot directory)
 * for the crash torture: structural invariants (integrity check, foreign keys,
 * every chunk with its document, every FTS row / BM25 posting / vector with its
 * chunk, every snapshot with its document) and each document's state (its
 * content hash and the exact list of its chunks), to compare with a clean run.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { load as loadSqliteVec } from "sqlite-vec";
import { chunkOfKeySql } from "../src/store/vector-keys.js";
import { sha256Hex } from "./oracle.js";

/** One document as stored. */
export interface StoredDocState {
  documentId: string;
  sourceClass: string;
  contentHash: string;
  /** "start:end:text_hash:chunk_id", in offset order. */
  chunks: string[];
  /** Chunks whose text does not hash to their text_hash. */
  badChunkHashes: number;
  /** Vectors stored for this document's chunks (when the collection has a vector table). */
  vectors: number;
}

/** What {@link inspectIndex} found. */
export interface IndexInspection {
  integrity: string;
  foreignKeyViolations: number;
  chunksWithoutDocument: number;
  documentsWithoutChunks: number;
  /** Lexical index rows without their chunk, and chunks without their lexical row. */
  lexicalOrphans: number;
  lexicalMissing: number;
  /** Which lexical / vector structures were present and checked. */
  structures: string[];
  vectorsWithoutChunk: number;
  docs: Map<string, StoredDocState>;
  /** Snapshot files that belong to no snapshot document. */
  orphanSnapshots: string[];
  /** Staged snapshot temp files (left by a crash; the next ingest sweeps them). */
  tempSnapshots: string[];
  /** Snapshot documents whose snapshot is missing or holds other content than the document row. */
  snapshotMismatches: string[];
  /** The collection's generation counter (bumped in every transaction that changes a document), if it has one yet. */
  generation: number | undefined;
  /** Chunks whose lexical postings differ from what the analyzer gives their text (PostgreSQL's postings are checked row by row). */
  lexicalMismatched: number;
  /** Scratch rows a finished writer should have removed (PostgreSQL's walk_seen rows of walks that are over). */
  scratchRows: number;
}

function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_schema WHERE name = ?").get(name) !== undefined;
}

/**
 * Open (read-write: WAL recovery after a crash is what any next open does) and
 * inspect the collection file and its snapshot directory.
 */
export function inspectIndex(dbPath: string, snapshotDir: string): IndexInspection {
  const db = new Database(dbPath);
  try {
    let vecLoaded = false;
    try {
      loadSqliteVec(db);
      vecLoaded = true;
    } catch {
      // Without sqlite-vec the vector table (if any) cannot be read; reported via `structures`.
    }
    const integrity = String(db.pragma("integrity_check", { simple: true }));
    const foreignKeyViolations = (db.pragma("foreign_key_check") as unknown[]).length;
    const scalar = (sql: string): number => Number(db.prepare(sql).pluck().get() ?? 0);
    const chunksWithoutDocument = scalar("SELECT count(*) FROM chunks WHERE doc_id NOT IN (SELECT id FROM documents)");
    const documentsWithoutChunks = scalar("SELECT count(*) FROM documents WHERE id NOT IN (SELECT doc_id FROM chunks)");
    const structures: string[] = [];
    let lexicalOrphans = 0;
    let lexicalMissing = 0;
    if (tableExists(db, "chunks_fts")) {
      structures.push("fts5");
      lexicalOrphans += scalar("SELECT count(*) FROM chunks_fts WHERE rowid NOT IN (SELECT id FROM chunks)");
      lexicalMissing += scalar("SELECT count(*) FROM chunks WHERE id NOT IN (SELECT rowid FROM chunks_fts)");
    }
    if (tableExists(db, "bm25_state")) {
      // Our own BM25 index keeps an exact count of live documents (chunks).
      structures.push("bm25-postings");
      const live = scalar("SELECT docs FROM bm25_state WHERE id = 1");
      const chunks = scalar("SELECT count(*) FROM chunks");
      if (live > chunks) lexicalOrphans += live - chunks;
      if (live < chunks) lexicalMissing += chunks - live;
      lexicalOrphans += scalar("SELECT count(*) FROM bm25_pending WHERE doc NOT IN (SELECT id FROM chunks)");
    }
    let vectorsWithoutChunk = 0;
    const hasVectors = tableExists(db, "chunk_vectors");
    if (hasVectors && vecLoaded) {
      structures.push("vec0");
      // A window after a chunk's first has a key of its own (src/store/vector-keys.ts): it counts as its chunk's.
      vectorsWithoutChunk = scalar(`SELECT count(*) FROM chunk_vectors_rowids WHERE ${chunkOfKeySql("rowid")} NOT IN (SELECT id FROM chunks)`);
    } else if (hasVectors) {
      structures.push("vec0 (unreadable: sqlite-vec did not load)");
    }
    const docs = new Map<string, StoredDocState>();
    const rows = db.prepare("SELECT id, document_id, source, source_class, content_hash FROM documents").all() as Array<{
      id: number;
      document_id: string;
      source: string;
      source_class: string;
      content_hash: string;
    }>;
    const chunkStmt = db.prepare("SELECT id, chunk_id, start_offset, end_offset, text_hash, text FROM chunks WHERE doc_id = ? ORDER BY start_offset, end_offset");
    const vectorStmt = hasVectors && vecLoaded ? db.prepare("SELECT count(*) FROM chunk_vectors WHERE rowid IN (SELECT id FROM chunks WHERE doc_id = ?)").pluck() : undefined;
    for (const row of rows) {
      const chunks = chunkStmt.all(row.id) as Array<{ chunk_id: string; start_offset: number; end_offset: number; text_hash: string; text: string }>;
      docs.set(row.source, {
        documentId: row.document_id,
        sourceClass: row.source_class,
        contentHash: row.content_hash,
        chunks: chunks.map((c) => `${c.start_offset}:${c.end_offset}:${c.text_hash}:${c.chunk_id}`),
        badChunkHashes: chunks.filter((c) => sha256Hex(c.text) !== c.text_hash).length,
        vectors: vectorStmt ? Number(vectorStmt.get(row.id)) : 0,
      });
    }
    const snapshots = inspectSnapshots(docs, snapshotDir);
    const generation = db.prepare("SELECT value FROM meta WHERE key = 'generation'").pluck().get() as string | undefined;
    return {
      integrity,
      foreignKeyViolations,
      chunksWithoutDocument,
      documentsWithoutChunks,
      lexicalOrphans,
      lexicalMissing,
      structures,
      vectorsWithoutChunk,
      docs,
      ...snapshots,
      generation: generation === undefined ? undefined : Number(generation),
      lexicalMismatched: 0,
      scratchRows: 0,
    };
  } finally {
    db.close();
  }
}

/** The snapshot directory against the snapshot documents: orphans, staged temp files, snapshots that do not hold their row's content. */
export function inspectSnapshots(
  docs: Map<string, StoredDocState>,
  snapshotDir: string,
): Pick<IndexInspection, "orphanSnapshots" | "tempSnapshots" | "snapshotMismatches"> {
  const snapshotDocs = new Map([...docs.values()].filter((d) => d.sourceClass === "snapshot").map((d) => [d.documentId, d]));
  const orphanSnapshots: string[] = [];
  const tempSnapshots: string[] = [];
  const names = existsSync(snapshotDir) ? readdirSync(snapshotDir) : [];
  for (const name of names) {
    if (name.endsWith(".tmp")) tempSnapshots.push(name);
    else if (!snapshotDocs.has(name)) orphanSnapshots.push(name);
  }
  const snapshotMismatches: string[] = [];
  for (const [id, d] of snapshotDocs) {
    const file = join(snapshotDir, id);
    if (!names.includes(id) || sha256Hex(readFileSync(file, "utf8")) !== d.contentHash) snapshotMismatches.push(id);
  }
  return { orphanSnapshots, tempSnapshots, snapshotMismatches };
}

/** Structural violations (things that must never be seen, even right after a kill). */
export function structuralViolations(x: IndexInspection): string[] {
  const out: string[] = [];
  if (x.integrity !== "ok") out.push(`integrity_check: ${x.integrity}`);
  if (x.foreignKeyViolations) out.push(`${x.foreignKeyViolations} foreign key violations`);
  if (x.chunksWithoutDocument) out.push(`${x.chunksWithoutDocument} chunks without their document`);
  if (x.documentsWithoutChunks) out.push(`${x.documentsWithoutChunks} documents without chunks`);
  if (x.lexicalOrphans) out.push(`${x.lexicalOrphans} lexical index rows without their chunk`);
  if (x.lexicalMissing) out.push(`${x.lexicalMissing} chunks missing from the lexical index`);
  if (x.lexicalMismatched) out.push(`${x.lexicalMismatched} chunks whose postings are not their text's`);
  if (x.vectorsWithoutChunk) out.push(`${x.vectorsWithoutChunk} vectors without their chunk`);
  if (x.orphanSnapshots.length) out.push(`${x.orphanSnapshots.length} snapshots without their document`);
  for (const [source, d] of x.docs) if (d.badChunkHashes) out.push(`${source}: ${d.badChunkHashes} chunks whose text does not match their hash`);
  return out;
}
