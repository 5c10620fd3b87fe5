/**
 * Many documents written by one statement (a write batch, ingest/write-batch.ts):
 * their rows, chunks, BM25 postings and statistics, and the generation, as
 * multi-row INSERTs over arrays (`unnest`), instead of four statements per
 * document. The statement reserves its row ids from the sequences itself,
 * handed out in the order the documents and chunks come, so ids keep the
 * order a per-document write gives them (BM25 breaks ties by id, as SQLite);
 * what it sends names a document or chunk by its position in the batch. So
 * the statement does not depend on the server's state and can be built
 * before its transaction, while the batch before it is being written
 * (`Store.prepareWrites`, ADR 0035).
 */
import type { NewChunk, StoredDocument } from "../store.js";
import { chunkMetadataJson } from "../rows.js";
import type { ChunkPostings } from "./postings.js";
import type { Statement } from "./pg-pool.js";

/** One document to write: its row, its chunks and their postings. */
export interface BulkDocument {
  doc: StoredDocument;
  chunks: NewChunk[];
  postings: ChunkPostings[];
}

/**
 * The statement inserting every document of `docs` (ids ascending in the
 * order given, chunk ids likewise), adding to `bm25_stats` and the generation
 * (one step per document, as separate writes would). Its one row is the
 * chunks' ids (`chunks`, float8[]), in order.
 */
export function bulkInsertStatement(docs: readonly BulkDocument[]): Statement {
  const d = {
    documentId: [] as string[],
    source: [] as string[],
    sourceClass: [] as string[],
    extractor: [] as Array<string | null>,
    baseDir: [] as Array<string | null>,
    fingerprint: [] as string[],
    contentHash: [] as string[],
    contentLength: [] as number[],
    ingestedAt: [] as string[],
    metadata: [] as string[],
  };
  const c = {
    chunkId: [] as string[],
    docId: [] as number[],
    ordinal: [] as number[],
    text: [] as string[],
    start: [] as number[],
    end: [] as number[],
    startLine: [] as number[],
    endLine: [] as number[],
    pageStart: [] as Array<number | null>,
    pageEnd: [] as Array<number | null>,
    textHash: [] as string[],
    metadata: [] as string[],
    dl: [] as number[],
  };
  // Postings as they come (chunk by chunk); sent sorted by term (postingsLiterals).
  const p = { term: [] as string[], chunk: [] as number[], tf: [] as number[], dl: [] as number[] };
  let totalLen = 0;
  let next = 0;
  // Positions are 1-based: subscripts of the id arrays the statement reserves.
  docs.forEach(({ doc, chunks, postings }, i) => {
    d.documentId.push(doc.document_id);
    d.source.push(doc.source);
    d.sourceClass.push(doc.source_class);
    d.extractor.push(doc.extractor);
    d.baseDir.push(doc.base_dir);
    d.fingerprint.push(doc.fingerprint);
    d.contentHash.push(doc.content_hash);
    d.contentLength.push(doc.content_length);
    d.ingestedAt.push(doc.ingested_at);
    d.metadata.push(JSON.stringify(doc.metadata));
    chunks.forEach((ch, j) => {
      const at = ++next;
      const post = postings[j]!;
      c.chunkId.push(ch.chunk_id);
      c.docId.push(i + 1);
      c.ordinal.push(ch.ordinal);
      c.text.push(ch.text);
      c.start.push(ch.start_offset);
      c.end.push(ch.end_offset);
      c.startLine.push(ch.start_line);
      c.endLine.push(ch.end_line);
      c.pageStart.push(ch.page_start);
      c.pageEnd.push(ch.page_end);
      c.textHash.push(ch.text_hash);
      c.metadata.push(chunkMetadataJson(ch));
      c.dl.push(post.dl);
      totalLen += post.dl;
      for (let k = 0; k < post.terms.length; k++) {
        p.term.push(post.terms[k]!);
        p.chunk.push(at);
        p.tf.push(post.tfs[k]!);
        p.dl.push(post.dl);
      }
    });
  });
  const sorted = postingsLiterals(p);
  return {
    sql: `WITH ids AS MATERIALIZED (
       SELECT ARRAY(SELECT nextval('document_ids') FROM generate_series(1, $30::int) ORDER BY 1) AS doc_ids,
         ARRAY(SELECT nextval('chunk_ids') FROM generate_series(1, $31::int) ORDER BY 1) AS chunk_ids),
     docs AS (
       INSERT INTO documents (id, document_id, source, source_class, extractor, base_dir, fingerprint, content_hash,
         content_length, ingested_at, metadata)
       SELECT ids.doc_ids[u.n], u.document_id, u.source, u.source_class, u.extractor, u.base_dir, u.fingerprint, u.content_hash,
         u.content_length, u.ingested_at, u.metadata
       FROM ids, unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[],
         $8::bigint[], $9::text[], $10::text[]) WITH ORDINALITY
         AS u(document_id, source, source_class, extractor, base_dir, fingerprint, content_hash, content_length, ingested_at, metadata, n)),
     ins AS (
       INSERT INTO chunks (id, chunk_id, doc_id, ordinal, text, start_offset, end_offset, start_line, end_line,
         page_start, page_end, text_hash, metadata, dl)
       SELECT ids.chunk_ids[u.n], u.chunk_id, ids.doc_ids[u.doc], u.ordinal, u.text, u.start_offset, u.end_offset, u.start_line,
         u.end_line, u.page_start, u.page_end, u.text_hash, u.metadata, u.dl
       FROM ids, unnest($11::text[], $12::int[], $13::int[], $14::text[], $15::bigint[], $16::bigint[], $17::int[], $18::int[],
         $19::int[], $20::int[], $21::text[], $22::text[], $23::int[]) WITH ORDINALITY
         AS u(chunk_id, doc, ordinal, text, start_offset, end_offset, start_line, end_line, page_start, page_end, text_hash,
           metadata, dl, n)),
     post AS (
       INSERT INTO bm25_postings (term, chunk, tf, dl)
       SELECT u.term, ids.chunk_ids[u.chunk], u.tf, u.dl FROM ids, unnest($24::text[], $25::int[], $26::int[], $27::int[]) AS u(term, chunk, tf, dl)),
     gen AS (
       INSERT INTO meta (key, value) VALUES ('generation', $29::bigint::text)
       ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + $29::bigint)::text)
     UPDATE bm25_stats SET docs = bm25_stats.docs + $31, total_len = bm25_stats.total_len + $28 FROM ids RETURNING ids.chunk_ids::float8[] AS chunks`,
    params: [
      d.documentId,
      d.source,
      d.sourceClass,
      d.extractor,
      d.baseDir,
      d.fingerprint,
      d.contentHash,
      d.contentLength,
      d.ingestedAt,
      d.metadata,
      c.chunkId,
      c.docId,
      c.ordinal,
      c.text,
      c.start,
      c.end,
      c.startLine,
      c.endLine,
      c.pageStart,
      c.pageEnd,
      c.textHash,
      c.metadata,
      c.dl,
      sorted.term,
      sorted.chunk,
      sorted.tf,
      sorted.dl,
      totalLen,
      String(docs.length),
      docs.length,
      c.chunkId.length,
    ],
  };
}

/**
 * The postings as four PostgreSQL array literals, in the order of the
 * `(term, chunk)` primary key (a term's postings keep the order given, which
 * is ascending chunk positions, so ascending ids). Inserted in that order, a batch descends the key's
 * btree once per leaf page instead of once per posting at a random place: the
 * key's upkeep is most of the server's time writing a batch (ADR 0035). Only
 * the speed depends on the order: JavaScript compares UTF-16 code units, the
 * key's "C" collation UTF-8 bytes, and the rows are the same either way.
 *
 * Built here rather than by `pg`, which quotes and escapes every element of a
 * parameter array one by one, and sorted by distinct term rather than posting
 * by posting: the two took about 1.8 s of a 20,000-chunk first ingest's CPU,
 * spent while the server waits for the batch's statement.
 */
function postingsLiterals(p: { term: string[]; chunk: number[]; tf: number[]; dl: number[] }): { term: string; chunk: string; tf: string; dl: string } {
  const byTerm = new Map<string, number[]>();
  for (let i = 0; i < p.term.length; i++) {
    const at = byTerm.get(p.term[i]!);
    if (at === undefined) byTerm.set(p.term[i]!, [i]);
    else at.push(i);
  }
  const terms = [...byTerm.keys()].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
  const term: string[] = [];
  const chunk: number[] = [];
  const tf: number[] = [];
  const dl: number[] = [];
  for (const t of terms) {
    const quoted = textElement(t);
    for (const i of byTerm.get(t)!) {
      term.push(quoted);
      chunk.push(p.chunk[i]!);
      tf.push(p.tf[i]!);
      dl.push(p.dl[i]!);
    }
  }
  return { term: `{${term.join(",")}}`, chunk: `{${chunk.join(",")}}`, tf: `{${tf.join(",")}}`, dl: `{${dl.join(",")}}` };
}

/** A text array element: double-quoted, with backslash and double quote escaped (as `pg` writes it). */
function textElement(s: string): string {
  return `"${/["\\]/.test(s) ? s.replace(/[\\"]/g, "\\$&") : s}"`;
}
