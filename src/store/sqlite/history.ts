/**
 * Document history in a SQLite collection file (store/history.ts has the
 * model). Archiving runs inside the caller's transaction, just before a
 * document's rows are deleted, by INSERT … SELECT from its chunks: nothing
 * is read into the process.
 */
import type { Statement } from "better-sqlite3";
import { sha256 } from "../../core/text.js";
import {
  groupRecords,
  SPAN_COLUMNS,
  splitChunkRow,
  VERSION_COLUMNS,
  type HistoryChunk,
  type HistoryHealth,
  type HistoryPruned,
  type HistoryReason,
  type HistoryRecord,
  type HistoryRetention,
  type HistorySpan,
  type HistoryTotals,
  type HistoryVersion,
} from "../history.js";
import type { Db } from "./db.js";

/** Versions dropped per step while the history is over its byte budget. */
const BYTES_STEP = 64;
/** Blocks hashed per page by the integrity check. */
const CHECK_PAGE = 500;
/** Example hashes a health report carries. */
const EXAMPLES = 5;


/** A document's history in one SQLite file. */
export class SqliteHistory {
  private prepared: Record<"insertBlocks" | "docBytes" | "insertVersion" | "insertSpans" | "versionsOf" | "spansOf" | "chunkOf", Statement> | undefined;

  constructor(private readonly db: Db) {}

  /** Prepared on first use: a file opened read-only at an older schema version has no history tables. */
  private get stmts(): NonNullable<SqliteHistory["prepared"]> {
    const db = this.db;
    return (this.prepared ??= {
      // WHERE before ON CONFLICT: SQLite would otherwise read ON as a join constraint.
      insertBlocks: db.prepare(`INSERT INTO history_blocks (hash, text, bytes)
        SELECT text_hash, text, length(CAST(text AS BLOB)) FROM chunks WHERE doc_id = ? ON CONFLICT DO NOTHING`),
      docBytes: db.prepare("SELECT coalesce(sum(length(CAST(text AS BLOB))), 0) FROM chunks WHERE doc_id = ?").pluck(),
      insertVersion: db.prepare(`INSERT INTO history_versions (document_id, source, source_class, extractor, fingerprint,
          content_hash, content_length, ingested_at, superseded_at, reason, bytes)
        SELECT document_id, source, source_class, extractor, fingerprint, content_hash, content_length, ingested_at, @at, @reason, @bytes
        FROM documents WHERE id = @doc`),
      insertSpans: db.prepare(`INSERT INTO history_spans (version_id, ordinal, chunk_id, start_offset, end_offset, start_line, end_line,
          page_start, page_end, hash)
        SELECT ?, ordinal, chunk_id, start_offset, end_offset, start_line, end_line, page_start, page_end, text_hash FROM chunks WHERE doc_id = ?`),
      versionsOf: db.prepare(`SELECT ${VERSION_COLUMNS} FROM history_versions v WHERE document_id = ? ORDER BY id DESC`),
      spansOf: db.prepare(`SELECT ${SPAN_COLUMNS}
        FROM history_spans s LEFT JOIN history_blocks b ON b.hash = s.hash WHERE s.version_id = ? ORDER BY s.ordinal`),
      chunkOf: db.prepare(`SELECT ${VERSION_COLUMNS}, ${SPAN_COLUMNS} FROM history_spans s JOIN history_versions v ON v.id = s.version_id
        LEFT JOIN history_blocks b ON b.hash = s.hash WHERE s.chunk_id = ? ORDER BY v.id DESC LIMIT 1`),
    });
  }

  /** Keep the document row `docRowid` (about to be deleted) as a version (caller holds the transaction). */
  archive(docRowid: number, reason: HistoryReason, at: string): void {
    this.stmts.insertBlocks.run(docRowid);
    const bytes = this.stmts.docBytes.get(docRowid) as number;
    const info = this.stmts.insertVersion.run({ doc: docRowid, at, reason, bytes });
    this.stmts.insertSpans.run(Number(info.lastInsertRowid), docRowid);
  }

  versionsOf(documentId: string): HistoryVersion[] {
    return this.stmts.versionsOf.all(documentId) as HistoryVersion[];
  }

  spansOf(versionId: number): HistorySpan[] {
    return this.stmts.spansOf.all(versionId) as HistorySpan[];
  }

  chunkOf(chunkId: string): HistoryChunk | undefined {
    const row = this.stmts.chunkOf.get(chunkId) as (HistoryVersion & HistorySpan) | undefined;
    return row && splitChunkRow(row);
  }

  /** Enforce a retention (off: drop all history), then drop the blocks no version names. */
  prune(retention: HistoryRetention, now: Date): HistoryPruned {
    const run = this.db.transaction((): HistoryPruned => {
      let versions = 0;
      if (!retention.enabled) {
        versions += this.db.prepare("DELETE FROM history_versions").run().changes;
      } else {
        versions += this.db
          .prepare(`DELETE FROM history_versions WHERE id IN (SELECT id FROM (SELECT id,
            row_number() OVER (PARTITION BY document_id ORDER BY id DESC) AS n FROM history_versions) WHERE n > ?)`)
          .run(retention.versions).changes;
        const cutoff = new Date(now.getTime() - retention.max_age_days * 86_400_000).toISOString();
        versions += this.db.prepare("DELETE FROM history_versions WHERE superseded_at < ?").run(cutoff).changes;
      }
      let blocks = versions > 0 ? this.collect() : 0;
      const total = this.db.prepare("SELECT coalesce(sum(bytes), 0) FROM history_blocks").pluck();
      const oldest = this.db.prepare(
        "DELETE FROM history_versions WHERE id IN (SELECT id FROM history_versions ORDER BY superseded_at, id LIMIT ?)",
      );
      while (retention.enabled && (total.get() as number) > retention.max_bytes) {
        const dropped = oldest.run(BYTES_STEP).changes;
        if (dropped === 0) break;
        versions += dropped;
        blocks += this.collect();
      }
      return { versions, blocks };
    });
    return run.immediate();
  }

  /** Drop blocks no span names. */
  private collect(): number {
    return this.db
      .prepare("DELETE FROM history_blocks WHERE NOT EXISTS (SELECT 1 FROM history_spans s WHERE s.hash = history_blocks.hash)")
      .run().changes;
  }

  totals(): HistoryTotals {
    // A file opened read-only at a schema older than history has none of its tables: it keeps nothing.
    if (this.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'history_versions'").get() === undefined) {
      return { versions: 0, documents: 0, blocks: 0, bytes: 0, oldest_ingested_at: null, oldest_superseded_at: null };
    }
    const row = this.db
      .prepare(`SELECT count(*) AS versions, count(DISTINCT document_id) AS documents,
          min(ingested_at) AS oldest_ingested_at, min(superseded_at) AS oldest_superseded_at FROM history_versions`)
      .get() as Omit<HistoryTotals, "blocks" | "bytes">;
    const blocks = this.db.prepare("SELECT count(*) AS blocks, coalesce(sum(bytes), 0) AS bytes FROM history_blocks").get() as Pick<HistoryTotals, "blocks" | "bytes">;
    return { ...row, ...blocks };
  }

  page(afterVersionId: number, limit: number): HistoryRecord[] {
    const versions = this.db
      .prepare(`SELECT ${VERSION_COLUMNS}, v.fingerprint FROM history_versions v WHERE v.id > ? ORDER BY v.id LIMIT ?`)
      .all(afterVersionId, limit) as Array<HistoryRecord["version"]>;
    if (versions.length === 0) return [];
    const spans = this.db
      .prepare(`SELECT s.version_id, ${SPAN_COLUMNS} FROM history_spans s LEFT JOIN history_blocks b ON b.hash = s.hash
        WHERE s.version_id BETWEEN ? AND ? ORDER BY s.version_id, s.ordinal`)
      .all(versions[0]!.version_id, versions[versions.length - 1]!.version_id) as Array<HistorySpan & { version_id: number }>;
    return groupRecords(versions, spans);
  }

  /** Add versions after the ones kept (ids in the given order); a savepoint of the caller's transaction. */
  write(records: readonly HistoryRecord[]): void {
    const block = this.db.prepare("INSERT INTO history_blocks (hash, text, bytes) VALUES (?, ?, ?) ON CONFLICT DO NOTHING");
    const version = this.db.prepare(`INSERT INTO history_versions (document_id, source, source_class, extractor, fingerprint,
        content_hash, content_length, ingested_at, superseded_at, reason, bytes)
      VALUES (@document_id, @source, @source_class, @extractor, @fingerprint, @content_hash, @content_length, @ingested_at,
        @superseded_at, @reason, @bytes)`);
    const span = this.db.prepare(`INSERT INTO history_spans (version_id, ordinal, chunk_id, start_offset, end_offset, start_line,
        end_line, page_start, page_end, hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    this.db.transaction(() => {
      for (const { version: v, spans } of records) {
        const { version_id: _id, ...row } = v;
        const id = Number(version.run(row).lastInsertRowid);
        spans.forEach((s, ordinal) => {
          if (s.text !== null) block.run(s.hash, s.text, Buffer.byteLength(s.text));
          span.run(id, ordinal, s.chunk_id, s.start_offset, s.end_offset, s.start_line, s.end_line, s.page_start, s.page_end, s.hash);
        });
      }
    })();
  }

  /** Totals, spans naming a missing block, blocks whose text does not hash to their key. */
  health(): HistoryHealth {
    const count = (sql: string): number => this.db.prepare(sql).pluck().get() as number;
    const examples: string[] = [];
    const danglingRows = this.db
      .prepare("SELECT DISTINCT s.hash FROM history_spans s WHERE NOT EXISTS (SELECT 1 FROM history_blocks b WHERE b.hash = s.hash) LIMIT ?")
      .pluck()
      .all(EXAMPLES) as string[];
    examples.push(...danglingRows);
    let mismatched = 0;
    const page = this.db.prepare("SELECT hash, text FROM history_blocks WHERE hash > ? ORDER BY hash LIMIT ?");
    for (let after = ""; ; ) {
      const rows = page.all(after, CHECK_PAGE) as Array<{ hash: string; text: string }>;
      if (rows.length === 0) break;
      for (const r of rows) {
        if (sha256(r.text) === r.hash) continue;
        mismatched++;
        if (examples.length < 2 * EXAMPLES) examples.push(r.hash);
      }
      after = rows[rows.length - 1]!.hash;
    }
    return {
      versions: count("SELECT count(*) FROM history_versions"),
      blocks: count("SELECT count(*) FROM history_blocks"),
      bytes: count("SELECT coalesce(sum(bytes), 0) FROM history_blocks"),
      dangling: count("SELECT count(*) FROM history_spans s WHERE NOT EXISTS (SELECT 1 FROM history_blocks b WHERE b.hash = s.hash)"),
      mismatched,
      examples,
    };
  }
}
