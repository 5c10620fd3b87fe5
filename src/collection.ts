/**
 * The library API every surface (CLI, REST, MCP) uses: open a collection,
 * ingest, search, fetch a chunk, verify a citation, report status.
 *
 * @example
 *   import { openCollection } from "groundkit";
 *   const col = openCollection({ indexDir: ".groundkit", collection: "default", create: true });
 *   await col.ingest(["./docs"]);
 *   const hits = await col.search("how are citations checked", { verify: true });
 *   col.close();
 */
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { checkCollectionName } from "./core/collection-name.js";
import { DEFAULTS } from "./core/config.js";
import { CitationSchema, type Citation, type SearchHit, type Verification } from "./core/contracts.js";
import { GroundkitError } from "./core/errors.js";
import { citationOf } from "./cite/citation.js";
import { checkCitation, verifyCitation, type VerifyContext } from "./cite/verify.js";
import { readExtractedSource } from "./cite/read-extracted-source.js";
import { readSnapshotSource } from "./cite/read-snapshot-source.js";
import { getExtractorRegistry } from "./extract/registry.js";
import { validateChunkerOptions } from "./ingest/chunker.js";
import { Dispatcher } from "./ingest/dispatch.js";
import { Ingestor, type IngestOptions, type IngestSummary } from "./ingest/ingest.js";
import { SnapshotStore } from "./store/snapshots.js";
import { compileFilters, parseFilters } from "./retrieve/filters.js";
import { lexicalSearch } from "./retrieve/lexical.js";
import { checkQuery, checkTopK } from "./retrieve/query.js";
import { SqliteStore } from "./store/sqlite/sqlite-store.js";
import type { StoreStats, StoredChunk } from "./store/store.js";

export interface CollectionLocation {
  /** Directory holding collection files (default `.groundkit`). */
  indexDir?: string | undefined;
  /** Collection name (default `default`). */
  collection?: string | undefined;
}

export interface OpenCollectionOptions extends CollectionLocation {
  /** Create the collection if it does not exist (ingest does; readers do not). */
  create?: boolean | undefined;
}

export type SearchMode = "bm25" | "dense" | "hybrid";

export interface SearchOptions {
  topK?: number | undefined;
  /** Retrieval mode (default bm25). */
  mode?: SearchMode | undefined;
  /** Filter strings such as `path=guides/**`, `class=text`, `tag=security` (ANDed). */
  filters?: readonly string[] | undefined;
  /** Re-check every hit against its source. */
  verify?: boolean | undefined;
  /** Override the containment root used for verification. */
  baseDir?: string | undefined;
}

export interface ChunkView {
  chunk_id: string;
  document_id: string;
  text: string;
  heading_path: string[];
  citation: Citation;
  verification: Verification;
  /** Source text around the span (code points each side), only when verified and asked for. */
  context: { before: string; after: string } | null;
}

/** A ranked chunk from {@link Collection.retrieve}. */
export interface RetrievedChunk {
  chunk_id: string;
  source: string;
  start_offset: number;
  end_offset: number;
  score: number;
}

export interface CollectionStatus extends StoreStats {
  collection: string;
  path: string;
  base_dirs: string[];
  chunker: { chunk_size: number; chunk_overlap: number } | null;
}

const FILE_SUFFIX = ".sqlite3";

function locate(loc: CollectionLocation): { indexDir: string; name: string; file: string } {
  const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
  const name = checkCollectionName(loc.collection ?? DEFAULTS.collection);
  return { indexDir, name, file: join(indexDir, name + FILE_SUFFIX) };
}

/** Open a collection. Throws COLLECTION_NOT_FOUND unless it exists or `create` is set. */
export function openCollection(opts: OpenCollectionOptions = {}): Collection {
  const { indexDir, name, file } = locate(opts);
  if (opts.create) mkdirSync(indexDir, { recursive: true, mode: 0o700 });
  else if (!safeIsFile(file)) {
    throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist in ${indexDir}.`);
  }
  return new Collection(name, indexDir, file, SqliteStore.open(file, { create: opts.create ?? false }));
}

function safeIsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Names of the collections in an index directory. */
export function listCollections(indexDir: string = DEFAULTS.indexDir): string[] {
  let names: string[];
  try {
    names = readdirSync(resolve(indexDir));
  } catch {
    return [];
  }
  return names
    .filter((n) => n.endsWith(FILE_SUFFIX))
    .map((n) => n.slice(0, -FILE_SUFFIX.length))
    .sort();
}

/** Delete a collection: its database, WAL files and snapshots. */
export function deleteCollection(loc: CollectionLocation): void {
  const { indexDir, name, file } = locate(loc);
  if (!safeIsFile(file)) throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist.`);
  for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
  rmSync(join(indexDir, `${name}.snapshots`), { recursive: true, force: true });
}

/** An open collection. Close it when done. */
export class Collection {
  private readonly snapshots: SnapshotStore;

  constructor(
    readonly name: string,
    readonly indexDir: string,
    readonly path: string,
    private readonly store: SqliteStore,
  ) {
    this.snapshots = new SnapshotStore(join(indexDir, `${name}.snapshots`));
  }

  /** Ingest files and folders; returns the run's summary. */
  async ingest(inputs: string[], opts: Partial<IngestOptions> = {}): Promise<IngestSummary> {
    const chunkSize = opts.chunkSize ?? DEFAULTS.chunkSize;
    const chunkOverlap = opts.chunkOverlap ?? DEFAULTS.chunkOverlap;
    validateChunkerOptions({ chunkSize, chunkOverlap, markdown: true });
    const ingestor = new Ingestor(
      this.store,
      { ...opts, chunkSize, chunkOverlap, maxFileSize: opts.maxFileSize ?? DEFAULTS.maxFileSize },
      new Dispatcher(await getExtractorRegistry()),
      this.snapshots,
    );
    const summary = await ingestor.run(inputs);
    // Converge after any crash: temp files and snapshots without a document go.
    await this.snapshots.sweep((id) => this.store.getDocument(id)?.source_class === "snapshot");
    this.store.setMeta("chunker", JSON.stringify({ chunk_size: chunkSize, chunk_overlap: chunkOverlap }));
    return summary;
  }

  /** BM25 search; each hit carries its citation (and a fresh verdict with `verify`). */
  async search(query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
    checkQuery(query);
    const topK = checkTopK(opts.topK);
    const filter = compileFilters(parseFilters(opts.filters));
    const mode = opts.mode ?? "bm25";
    if (mode !== "bm25") {
      throw new GroundkitError("NO_VECTORS", `Collection '${this.name}' has no vectors, so '${mode}' search is unavailable.`);
    }
    const rows = lexicalSearch(this.store, query, topK, filter);
    const hits: SearchHit[] = rows.map((row, i) => ({
      rank: i + 1,
      score: row.score,
      chunk_id: row.chunk_id,
      document_id: row.document.document_id,
      text: row.text,
      heading_path: row.heading_path,
      citation: citationOf(row),
    }));
    if (opts.verify) {
      for (const [i, hit] of hits.entries()) {
        hit.verification = await this.verifyStored(rows[i]!, opts.baseDir);
      }
    }
    return hits;
  }

  /**
   * Ranked chunks without the user-facing top_k cap or verification, for
   * evaluation and internal pipelines (e.g. deep candidate pools).
   */
  retrieve(query: string, limit: number): RetrievedChunk[] {
    checkQuery(query);
    return lexicalSearch(this.store, query, limit).map((row) => ({
      chunk_id: row.chunk_id,
      source: row.document.source,
      start_offset: row.start_offset,
      end_offset: row.end_offset,
      score: row.score,
    }));
  }

  /**
   * A chunk with its citation and a fresh verdict; with `contextChars`, the
   * source text around a verified span (read in the same pass as verification).
   */
  async getChunk(
    chunkId: string,
    opts: { baseDir?: string | undefined; contextChars?: number | undefined } = {},
  ): Promise<ChunkView> {
    const chunk = this.store.getChunk(chunkId);
    if (!chunk) throw new GroundkitError("CHUNK_NOT_FOUND", `No chunk ${chunkId} in collection '${this.name}'.`);
    const citation = citationOf(chunk);
    const { verification, content } = await checkCitation(citation, this.verifyContext(chunk, opts.baseDir));
    const chars = opts.contextChars ?? 0;
    const context =
      verification.verdict === "verified" && content && chars > 0
        ? {
            before: content.slice(Math.max(0, citation.start_offset - chars), citation.start_offset),
            after: content.slice(citation.end_offset, Math.min(content.length, citation.end_offset + chars)),
          }
        : null;
    return {
      chunk_id: chunk.chunk_id,
      document_id: chunk.document.document_id,
      text: chunk.text,
      heading_path: chunk.heading_path,
      citation,
      verification,
      context,
    };
  }

  /**
   * Verify a citation on its own (no chunk row needed: it carries its text hash).
   * `originalText`, when given and matching the hash, lets a drift say where the text moved.
   */
  async verify(raw: unknown, opts: { baseDir?: string | undefined; originalText?: string | undefined } = {}): Promise<Verification> {
    const citation = parseCitation(raw);
    const stored = this.store.getChunk(citation.chunk_id);
    const doc = this.store.getDocument(citation.document_id);
    return verifyCitation(citation, {
      ...this.readers(),
      baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc?.base_dir ?? this.recordedBaseDirFor(citation.source)),
      originalText: opts.originalText ?? (stored?.text_hash === citation.text_hash ? stored.text : undefined),
    });
  }

  /** Delete one document (its chunks, postings and snapshot). Returns false when it did not exist. */
  async deleteDocument(documentId: string): Promise<boolean> {
    const doc = this.store.getDocument(documentId);
    if (!doc) return false;
    this.store.deleteDocument(documentId);
    if (doc.source_class === "snapshot") await this.snapshots.remove(documentId);
    return true;
  }

  /** Counts, schema version, last ingest. */
  status(): CollectionStatus {
    const chunker = this.store.getMeta("chunker");
    return {
      collection: this.name,
      path: this.path,
      ...this.store.stats(),
      base_dirs: this.baseDirs(),
      chunker: chunker ? (JSON.parse(chunker) as CollectionStatus["chunker"]) : null,
    };
  }

  close(): void {
    this.store.close();
  }

  private verifyStored(chunk: StoredChunk, baseDir: string | undefined): Promise<Verification> {
    return verifyCitation(citationOf(chunk), this.verifyContext(chunk, baseDir));
  }

  private verifyContext(chunk: StoredChunk, baseDir: string | undefined): VerifyContext {
    return {
      ...this.readers(),
      baseDir: baseDir ? resolve(baseDir) : (chunk.document.base_dir ?? undefined),
      originalText: chunk.text,
    };
  }

  /** How each source class obtains its current text. */
  private readers() {
    return {
      maxFileSize: DEFAULTS.maxFileSize,
      readExtracted: (c: Citation, realPath: string) => readExtractedSource(c, realPath, DEFAULTS.maxFileSize),
      readSnapshot: (c: Citation) => readSnapshotSource(c, this.snapshots),
    };
  }

  private baseDirs(): string[] {
    return JSON.parse(this.store.getMeta("base_dirs") ?? "[]") as string[];
  }

  /** The deepest base dir recorded at ingest that lexically contains `source`. */
  private recordedBaseDirFor(source: string): string | undefined {
    return this.baseDirs()
      .filter((d) => source.startsWith(d.endsWith(sep) ? d : d + sep))
      .sort((a, b) => b.length - a.length)[0];
  }
}

/** Accept a bare citation or a search hit (`{citation, text}`) and validate it. */
export function parseCitation(raw: unknown): Citation {
  const candidate = (raw as { citation?: unknown } | null)?.citation ?? raw;
  const parsed = CitationSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new GroundkitError(
      "INVALID_CITATION",
      `Not a valid citation: ${issue?.path.join(".") || "(root)"}: ${issue?.message ?? "invalid"}.`,
    );
  }
  return parsed.data;
}
