/**
 * Ingest: walk sources, load, skip what is unchanged, chunk and store what
 * changed, prune what is gone. Documents are written in batches that share a
 * commit, each document in its own savepoint (write-batch.ts). A file that fails is refused by name and
 * the run goes on; its previous index state stays.
 */
import { stat } from "node:fs/promises";
import { dirname, extname, relative, resolve, sep } from "node:path";
import { readContainedFile } from "../source/contained-read.js";
import type { SourceClass } from "../core/contracts.js";
import { fsErrorToGroundkit } from "../core/containment.js";
import { GroundkitError, toGroundkitError } from "../core/errors.js";
import { sha256 } from "../core/text.js";
import type { StoredDocument, Store } from "../store/store.js";
import type { ChunkVectors } from "../store/vectors.js";
import { vectorCount } from "../embed/chunk-vectors.js";
import { guardedFetch } from "../net/guarded-fetch.js";
import { hasUrlScheme, isUrlSource, redactUrl } from "../net/url-shape.js";
import type { SnapshotStore } from "../store/snapshots.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import { buildChunks, type ChunkSettings } from "./build-chunks.js";
import { CHUNKER_VERSION, type ChunkingDecision } from "./chunking-settings.js";
import { discoverFiles } from "./discover.js";
import { identityFor, identityMetadata, identityOf, type DocumentIdentity } from "./document-identity.js";
import type { Dispatcher, LoadedContent, Loader } from "./dispatch.js";
import { parseFrontMatter } from "./front-matter.js";
import { INGEST_SPANS } from "./ingest-tracing.js";
import { WalkLookahead, type KnownSource } from "./walk-lookahead.js";
import { goneDocument, goneDocumentsWith, movedMetadata, pairEdits, pairMoves, similarDocuments, unseenUnder, type EditCandidate, type MoveCandidate } from "./moves.js";
import {
  DEFAULT_WRITE_BATCH_LIMITS,
  DENSE_WRITE_BATCH_LIMITS,
  embedDocuments,
  WriteBatch,
  writeDocuments,
  type PendingDocument,
} from "./write-batch.js";

export interface IngestOptions extends ChunkSettings {
  /** Containment root; default: the ingested folder, or a file's parent. */
  baseDir?: string | undefined;
  include?: string[] | undefined;
  exclude?: string[] | undefined;
  maxFileSize: number;
  /** Allow URL hosts on loopback/private networks (link-local and metadata stay refused). */
  allowPrivateNetwork?: boolean | undefined;
  /** Total timeout for fetching one URL, in ms. */
  fetchTimeoutMs?: number | undefined;
  /** Embed chunk texts (dense ingest); vectors commit in the same transaction as their chunks. */
  embed?: ((texts: string[]) => Promise<ChunkVectors[]>) | undefined;
  onProgress?: ((p: IngestProgress) => void) | undefined;
  /** Called once per document this run added, replaced or removed, after it committed (watch logs a line each). */
  onChange?: ((change: DocumentChange) => void) | undefined;
}

/** A document an ingest run wrote, moved or removed. */
export interface DocumentChange {
  /** The path, or the URL with any credentials or query redacted. */
  source: string;
  change: "added" | "replaced" | "moved" | "removed";
  /** Chunks written (0 for a move or a removal). */
  chunks: number;
  /** A move's previous path. */
  from?: string | undefined;
}

export interface IngestProgress {
  files_seen: number;
  indexed: number;
  unchanged: number;
  failed: number;
  current?: string;
}

export interface IngestFailure {
  source: string;
  code: string;
  message: string;
}

/** The summary printed by `grk ingest` (stable `--json` shape). */
export interface IngestSummary {
  files_seen: number;
  indexed: number;
  unchanged: number;
  removed: number;
  /** Documents whose file moved to another path in this walk: same id and chunks, new source (ingest/moves.ts). */
  moved: number;
  skipped: Array<{ source: string; reason: string }>;
  /** Code files indexed by lines instead of their syntax (a parse error, a grammar that would not load), and why. */
  indexed_by_lines: Array<{ source: string; reason: string }>;
  unsupported: string[];
  chunks_written: number;
  /** Vectors written (dense ingest, including backfill of chunks that had none). */
  vectors_written: number;
  failed: IngestFailure[];
  duration_ms: number;
  /** The chunking this run used, and whether it re-chunked (set by the collection; null before). */
  chunking: ChunkingDecision | null;
}

/**
 * Fingerprint: hash of (raw bytes, chunker settings and rules version, loader
 * identity); unchanged → skipped before chunking. Version 1 keeps the shape
 * fingerprints had before the version was recorded, so existing collections
 * are not re-chunked for nothing; a later version re-chunks every document.
 */
export function fingerprintOf(bytesHash: string, loaderIdentity: string, settings: ChunkSettings, chunkerVersion = CHUNKER_VERSION): string {
  const chunk = [settings.chunkSize, settings.chunkOverlap, ...(chunkerVersion === 1 ? [] : [chunkerVersion])];
  return sha256(JSON.stringify({ bytes: bytesHash, loader: loaderIdentity, chunk }));
}

/** The loader identity a file's fingerprint records (its revision, when it has one). */
function loadedByOf(loader: Loader): string {
  return loader.revision === undefined ? loader.identity : `${loader.identity}#${loader.revision}`;
}

/** A summary with nothing counted yet. */
export function emptySummary(): IngestSummary {
  return {
    files_seen: 0,
    indexed: 0,
    unchanged: 0,
    removed: 0,
    moved: 0,
    skipped: [],
    indexed_by_lines: [],
    unsupported: [],
    chunks_written: 0,
    vectors_written: 0,
    failed: [],
    duration_ms: 0,
    chunking: null,
  };
}

/**
 * Longest stretch of synchronous work before ingest lets the event loop run.
 * File system calls are synchronous (see readContainedFile), so without a pause a
 * large folder would hold off timers, signals and, in a server, every request.
 */
const BREATHE_EVERY_MS = 15;

/** Documents deleted per transaction when pruning, and the page size of the walk over stored ones. */
const PRUNE_PAGE = 1000;

/** Merge the summaries of several runs into one (an update of many roots, a call with many groups). */
export function mergeSummaries(all: readonly IngestSummary[]): IngestSummary {
  const out = emptySummary();
  for (const s of all) {
    out.files_seen += s.files_seen;
    out.indexed += s.indexed;
    out.unchanged += s.unchanged;
    out.removed += s.removed;
    out.moved += s.moved;
    out.chunks_written += s.chunks_written;
    out.vectors_written += s.vectors_written;
    out.duration_ms += s.duration_ms;
    out.skipped.push(...s.skipped);
    out.indexed_by_lines.push(...s.indexed_by_lines);
    out.unsupported.push(...s.unsupported);
    out.failed.push(...s.failed);
    // Every run of one call uses the same chunking; the first says whether it re-chunked.
    out.chunking ??= s.chunking;
  }
  return out;
}

/** An input the run could reach (a path that exists, a URL that was fetched): what a collection records as a root. */
export interface ReachedInput {
  source: string;
  kind: "path" | "url";
}

/**
 * New files held (with their loaded content) at most per run while the walk
 * decides whether they are renames with edits; past it, files are written at
 * once and only same-content moves are found.
 */
const MAX_EDIT_CANDIDATES = 256;

/** The path fields of a file's document metadata. */
function pathMetadata(baseDir: string, path: string): Record<string, unknown> {
  return { ext: extname(path).toLowerCase(), rel_path: relative(baseDir, path) };
}

export class Ingestor {
  private readonly summary: IngestSummary = emptySummary();
  /** Inputs this run reached, in order. */
  readonly reached: ReachedInput[] = [];
  private readonly batch: WriteBatch;
  /** New files of this walk whose content the collection already holds elsewhere: moves or copies, decided after the walk. */
  private moveCandidates: MoveCandidate[] = [];
  /** Folders this run walked: moves are settled among them, and each is pruned, once all are walked. */
  private readonly walkedFolders: string[] = [];
  /** New files of this run whose content mostly is an indexed document's: renames with edits or copies, decided after the walk. */
  private editCandidates: Array<EditCandidate<LoadedContent>> = [];
  /** The run's path inputs, and when it began: only documents under them, indexed before it, can be found gone. */
  private inputPaths: string[] = [];
  private startedAt = "";
  /**
   * Whether documents were indexed under the inputs before the run. When none were, none can be found gone, so
   * no new file is a move or a rename with edits: the walk neither hashes files ahead nor asks which
   * fingerprints or chunk texts the store holds (a first ingest pays nothing for move detection).
   */
  private heldUnderInputs = true;
  private lastBreath = performance.now();
  /** The batches handed to the store, in order: the last one's write, and the one before it. */
  private writing: Promise<void> = Promise.resolve();
  private previousWrite: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: Store,
    private readonly opts: IngestOptions,
    private readonly dispatcher: Dispatcher,
    private readonly snapshots: SnapshotStore,
  ) {
    this.batch = new WriteBatch(store, opts.embed ? DENSE_WRITE_BATCH_LIMITS : DEFAULT_WRITE_BATCH_LIMITS);
  }

  /**
   * Ingest every input (file or folder path, or http(s) URL) and return the summary.
   * Moves are settled and folders pruned after every input was walked, so a file
   * moved from one folder of the run to another is a move too.
   */
  async run(inputs: string[]): Promise<IngestSummary> {
    const started = performance.now();
    this.startedAt = new Date().toISOString();
    this.inputPaths = inputs.filter((i) => !hasUrlScheme(i)).map((i) => resolve(i));
    this.heldUnderInputs = await this.anyDocumentUnder(this.inputPaths);
    // The run's sources are recorded in the store; pruning keeps every document whose source is among them.
    await this.store.resetSeenSources();
    for (const input of inputs) {
      if (hasUrlScheme(input)) await this.ingestUrl(input);
      else await this.ingestPath(resolve(input));
    }
    await this.settleMoves(this.walkedFolders);
    for (const folder of this.walkedFolders) await this.prune(folder);
    this.summary.duration_ms = Math.round(performance.now() - started);
    if (this.summary.indexed > 0 || this.summary.removed > 0 || this.summary.moved > 0) {
      await this.store.setMeta("last_ingest_at", new Date().toISOString());
    }
    return this.summary;
  }

  private async ingestPath(path: string): Promise<void> {
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (err) {
      this.fail(path, fsErrorToGroundkit(err, path));
      return;
    }
    const baseDir = resolve(this.opts.baseDir ?? (isDir ? path : dirname(path)));
    await this.recordBaseDir(baseDir);
    this.reached.push({ source: path, kind: "path" });
    if (isDir && !this.walkedFolders.includes(path)) this.walkedFolders.push(path);
    // Discovery is lazy, interleaved with reading: this span covers one input's walk, the
    // per-file stages are its children, and discover_ms is the time spent finding files (and looking a page of them up in the store).
    await withSpan(INGEST_SPANS.discover, { "groundkit.ingest.folder": isDir }, async (span) => {
      const entries = new WalkLookahead(
        discoverFiles(path, {
          baseDir,
          include: this.opts.include,
          exclude: this.opts.exclude,
          extensions: this.dispatcher.supportedExtensions(),
          names: this.dispatcher.supportedNames(),
        })[Symbol.asyncIterator](),
        this.store,
        (entry) => (entry.kind === "file" && this.heldUnderInputs ? this.fingerprintOfFile(entry.path, entry.realPath) : Promise.resolve(undefined)),
      );
      let discoverMs = 0;
      let files = 0;
      try {
        for (;;) {
          const asked = performance.now();
          const next = await entries.next();
          discoverMs += performance.now() - asked;
          if (next.done) break;
          const { entry, known } = next.value;
          if (entry.kind === "unsupported") {
            this.summary.unsupported.push(entry.path);
            continue;
          }
          if (entry.kind === "skipped") {
            this.summary.skipped.push({ source: entry.path, reason: entry.reason });
            continue;
          }
          this.summary.files_seen++;
          files++;
          if (entry.kind === "refused") {
            await this.store.markSourceSeen(entry.path);
            this.fail(entry.path, entry.error);
            continue;
          }
          await this.ingestFile(entry.path, entry.realPath, baseDir, true, known);
          if (this.batch.full()) await this.commitBatch();
          await this.breathe();
        }
      } finally {
        await entries.return();
        span.setAttributes({ "groundkit.ingest.files_seen": files, "groundkit.ingest.discover_ms": Math.round(discoverMs) });
        // Whatever stopped the walk, documents already chunked are written.
        await this.finishWrites();
      }
    });
  }

  /**
   * `realPath` is the one discovery checked for containment: the read opens that, never `path` again.
   * With `mayMove` (while walking the inputs), a new file whose fingerprint the collection already holds is set
   * aside until the walk knows whether it is a move. `known` is what the walk's lookahead already asked
   * the store about the source (walk-lookahead.ts).
   */
  private async ingestFile(path: string, realPath: string, baseDir: string, mayMove: boolean, known?: KnownSource): Promise<void> {
    this.progress(path);
    const loader = await this.dispatcher.forPath(path);
    if (!loader) {
      this.summary.unsupported.push(path);
      return;
    }
    // Seen, whatever happens next: written, unchanged, empty or failed, its document is not pruned.
    await this.store.markSourceSeen(path);
    try {
      const read = await withSpan(INGEST_SPANS.read, { "groundkit.ingest.ext": extname(path).toLowerCase() }, async (span) => {
        const bytes = await readContainedFile(realPath, this.opts.maxFileSize, path);
        const fingerprint = fingerprintOf(sha256(bytes), loadedByOf(loader), this.opts);
        const existing = known ? known.state : await this.store.documentState(path);
        const unchanged = existing !== undefined && existing.fingerprint === fingerprint && existing.base_dir === baseDir;
        span.setAttributes({ "groundkit.ingest.bytes": bytes.length, "groundkit.ingest.unchanged": unchanged });
        return { bytes, fingerprint, unchanged, replaces: existing !== undefined };
      });
      if (read.unchanged) {
        this.summary.unchanged++;
        return;
      }
      const { bytes, fingerprint } = read;
      // A new file that may turn out to be a moved, copied or renamed-and-edited document.
      const mayPair = mayMove && !read.replaces && this.heldUnderInputs;
      if (mayPair && (await this.fingerprintHeld(fingerprint, known))) {
        this.moveCandidates.push({ path, realPath, baseDir, fingerprint });
        return;
      }
      const loaded = await this.extract(loader, bytes, path);
      const identity = known?.identity ?? (await identityFor(this.store, path));
      const pending = this.prepareDocument(path, identity, baseDir, fingerprint, loaded, pathMetadata(baseDir, path));
      if (pending && mayPair && this.editCandidates.length < MAX_EDIT_CANDIDATES) {
        const similar = await similarDocuments(this.store, pending.chunks, this.inputPaths, this.startedAt);
        if (similar.length > 0) {
          this.editCandidates.push({ path, realPath, baseDir, fingerprint, similar, held: loaded });
          return;
        }
      }
      if (pending) this.batch.add({ ...pending, replaces: read.replaces });
    } catch (err) {
      this.fail(path, toGroundkitError(err));
    }
  }

  /** What the walk's lookahead reads of a file: its fingerprint, or undefined when it cannot be read or loaded. */
  private async fingerprintOfFile(path: string, realPath: string): Promise<string | undefined> {
    try {
      const loader = await this.dispatcher.forPath(path);
      if (!loader) return undefined;
      const bytes = await readContainedFile(realPath, this.opts.maxFileSize, path);
      return fingerprintOf(sha256(bytes), loadedByOf(loader), this.opts);
    } catch {
      return undefined;
    }
  }

  /** Whether the store holds a document under one of `folders` (one row asked per folder; a first ingest asks nothing more per file). */
  private async anyDocumentUnder(folders: readonly string[]): Promise<boolean> {
    for (const folder of folders) {
      if ((await this.store.listDocuments({ prefix: folder + sep, limit: 1 })).length > 0) return true;
    }
    return false;
  }

  /** Whether a stored document has `fingerprint`: the lookahead's answer when it hashed the same bytes, else the store's. */
  private async fingerprintHeld(fingerprint: string, known: KnownSource | undefined): Promise<boolean> {
    if (known?.fingerprint?.value === fingerprint) return known.fingerprint.held;
    return (await this.store.documentsWithFingerprint(fingerprint, 1)).length > 0;
  }

  /**
   * Fetch a URL through the SSRF guard and store it as a snapshot document:
   * the indexed content is written under the index dir and verification reads
   * that copy, never the network. An unchanged page writes nothing new.
   */
  private async ingestUrl(raw: string): Promise<void> {
    const label = redactUrl(raw);
    this.summary.files_seen++;
    this.progress(label);
    try {
      const res = await withSpan(INGEST_SPANS.read, { "groundkit.ingest.fetch": true }, async (span) => {
        const fetched = await guardedFetch(raw, {
          allowPrivateNetwork: this.opts.allowPrivateNetwork ?? false,
          maxBytes: this.opts.maxFileSize,
          timeoutMs: this.opts.fetchTimeoutMs,
        });
        span.setAttribute("groundkit.ingest.bytes", fetched.body.length);
        return fetched;
      });
      this.reached.push({ source: res.url, kind: "url" });
      const loader = await this.dispatcher.forMediaType(res.contentType, label);
      const fingerprint = fingerprintOf(sha256(res.body), `snapshot:${loader.identity}`, this.opts);
      const existing = await this.store.getDocumentBySource(res.url);
      if (existing && existing.fingerprint === fingerprint && (await this.snapshotIntact(existing))) {
        this.summary.unchanged++;
        return;
      }
      const loaded = await this.extract(loader, res.body, label, { charset: res.charset });
      const pending = this.prepareDocument(
        res.url,
        await identityFor(this.store, res.url),
        null,
        fingerprint,
        // A snapshot stores the extracted text only: its source lines could never be re-checked.
        { ...loaded, sourceClass: "snapshot", extractor: null, sourceLines: undefined },
        { content_type: res.contentType, loaded_by: loader.identity, fetched_at: new Date().toISOString() },
      );
      if (pending) await this.storeSnapshotDocument({ ...pending, replaces: existing !== undefined }, loaded.content);
    } catch (err) {
      this.fail(label, toGroundkitError(err));
    }
  }

  /** Load (decode or extract) one source's bytes, in its own span. */
  private extract(loader: Loader, bytes: Uint8Array, label: string, hints?: { charset?: string | undefined }): Promise<LoadedContent> {
    return withSpan(INGEST_SPANS.extract, { "groundkit.ingest.loader": loader.identity }, async (span) => {
      const loaded = await loader.load(bytes, label, hints);
      span.setAttributes({ [ATTR.sourceClass]: loaded.sourceClass, "groundkit.ingest.code_units": loaded.content.length });
      return loaded;
    });
  }

  private async snapshotIntact(doc: StoredDocument): Promise<boolean> {
    try {
      const text = await this.snapshots.read(doc.document_id);
      return text !== undefined && sha256(text) === doc.content_hash;
    } catch {
      return false;
    }
  }

  /** Chunk one loaded document; undefined when there is nothing to index. */
  private prepareDocument(
    source: string,
    identity: DocumentIdentity,
    baseDir: string | null,
    fingerprint: string,
    loaded: LoadedContent,
    extraMetadata: Record<string, unknown>,
  ): PendingDocument | undefined {
    const skip = loaded.skip ?? (loaded.content.trim().length === 0 ? "empty or whitespace-only" : undefined);
    if (skip) {
      this.summary.skipped.push({ source: isUrlSource(source) ? redactUrl(source) : source, reason: skip });
      return undefined;
    }
    if (loaded.code?.fallback) this.summary.indexed_by_lines.push({ source, reason: loaded.code.fallback });
    const chunks = withSpan(INGEST_SPANS.chunk, {}, (span) => {
      const built = buildChunks(identity.idKey, loaded, this.opts);
      span.setAttribute("groundkit.ingest.chunks", built.length);
      return built;
    });
    const front = loaded.markdown ? parseFrontMatter(loaded.content) : {};
    const doc: StoredDocument = {
      document_id: identity.document_id,
      source,
      source_class: loaded.sourceClass,
      extractor: loaded.extractor,
      base_dir: baseDir,
      fingerprint,
      content_hash: sha256(loaded.content),
      content_length: loaded.content.length,
      ingested_at: new Date().toISOString(),
      metadata: {
        ...extraMetadata,
        ...(loaded.title ? { title: loaded.title } : {}),
        ...(loaded.code ? { lang: loaded.code.lang, ...(loaded.code.fallback ? { chunking: loaded.code.fallback } : {}) } : {}),
        ...front,
        // After the front matter: a field of the file must not change which id the document has.
        ...identityMetadata(identity, source),
      },
    };
    return { doc, chunks };
  }

  /**
   * Embed the pending batch (dense ingest) and write it in one transaction,
   * counting what it did. When embedding fails, every document of the batch
   * fails by name and keeps its previous state.
   */
  private async commitBatch(): Promise<void> {
    if (this.batch.size === 0) return;
    if (this.opts.embed) {
      const embed = this.opts.embed;
      try {
        await withSpan(INGEST_SPANS.embed, { "groundkit.ingest.documents": this.batch.size }, () => this.batch.embed(embed));
      } catch (err) {
        const error = toGroundkitError(err);
        for (const pending of this.batch.discard()) this.fail(pending.doc.source, error);
        return;
      }
    }
    // Written while the walk reads and chunks the next batch (ADR 0035): on a server store the write is
    // mostly the server's work. One batch at a time, in order; finishWrites() waits for the last.
    const batch = this.batch.discard();
    // Its statement built now, while the batch before it is still being written, not while the server waits.
    this.store.prepareWrites?.(batch);
    this.writing = this.writing.then(() => this.writeBatch(batch));
    // The batch before this one is done: its failures and counts are in the summary before the walk goes on.
    await this.previousWrite;
    this.previousWrite = this.writing;
  }

  /** Commit what is pending and wait until every batch is written. */
  private async finishWrites(): Promise<void> {
    await this.commitBatch();
    await this.writing;
  }

  private async writeBatch(batch: PendingDocument[]): Promise<void> {
    const outcome = await withSpan(INGEST_SPANS.commit, { "groundkit.ingest.documents": batch.length }, async (span) => {
      const committed = await writeDocuments(this.store, batch);
      span.setAttributes({ "groundkit.ingest.written": committed.written.length, "groundkit.ingest.failed": committed.failed.length });
      return committed;
    });
    for (const { pending } of outcome.written) this.counted(pending);
    for (const { pending, error } of outcome.failed) this.fail(pending.doc.source, error);
  }

  /**
   * A snapshot document is written on its own: its content is staged first and
   * made visible only after the rows commit; a crash in between leaves a temp
   * file that the next run sweeps.
   */
  private async storeSnapshotDocument(pending: PendingDocument, content: string): Promise<void> {
    await this.finishWrites();
    const embed = this.opts.embed;
    if (embed) await withSpan(INGEST_SPANS.embed, { "groundkit.ingest.documents": 1 }, () => embedDocuments([pending], embed));
    const staged = await this.snapshots.stage(pending.doc.document_id, content);
    try {
      await withSpan(INGEST_SPANS.commit, { "groundkit.ingest.documents": 1 }, () => this.store.replaceDocument(pending.doc, pending.chunks, pending.vectors));
    } catch (err) {
      await staged.abort();
      throw err;
    }
    await staged.commit();
    this.counted(pending);
  }

  private counted(pending: PendingDocument): void {
    const source = pending.doc.source_class === "snapshot" ? redactUrl(pending.doc.source) : pending.doc.source;
    // A document moved with edits was counted (and reported) as moved.
    if (pending.movedFrom === undefined) {
      this.opts.onChange?.({ source, change: pending.replaces ? "replaced" : "added", chunks: pending.chunks.length });
      this.summary.indexed++;
    }
    this.summary.chunks_written += pending.chunks.length;
    this.summary.vectors_written += pending.vectors?.reduce((n, v) => n + vectorCount(v), 0) ?? 0;
  }

  /**
   * Decide the walk's move candidates: each one paired with a gone document of
   * the same fingerprint takes that document over (same id and chunks, its new
   * source); the others are ingested as new documents (copies). Then pruning
   * removes what is still unseen.
   */
  private async settleMoves(folders: readonly string[]): Promise<void> {
    await this.settleSameContentMoves(folders);
    await this.settleEditedMoves(folders);
  }

  private async settleSameContentMoves(folders: readonly string[]): Promise<void> {
    const candidates = this.moveCandidates;
    this.moveCandidates = [];
    if (candidates.length === 0) return;
    const gone = await goneDocumentsWith(this.store, folders, new Set(candidates.map((c) => c.fingerprint)));
    const { moves, unpaired } = pairMoves(candidates, gone);
    const done = await this.store.transaction(async (tx) => {
      const out: typeof moves = [];
      for (const move of moves) {
        const to = { source: move.to.path, base_dir: move.to.baseDir, metadata: movedMetadata(move) };
        try {
          if (await tx.moveDocument(move.from.document_id, to)) out.push(move);
        } catch {
          // Rolled back alone (a savepoint): the file is then ingested as a new document below.
        }
      }
      return out;
    });
    for (const { from, to } of done) {
      this.summary.moved++;
      this.opts.onChange?.({ source: to.path, change: "moved", chunks: 0, from: from.source });
    }
    const moved = new Set(done.map((m) => m.to.path));
    for (const c of unpaired.concat(moves.filter((m) => !moved.has(m.to.path)).map((m) => m.to))) {
      await this.ingestFile(c.path, c.realPath, c.baseDir, false);
      if (this.batch.full()) await this.commitBatch();
      await this.breathe();
    }
    await this.finishWrites();
  }

  /**
   * Decide the run's renames with edits (ADR 0037): a gone document paired with
   * the one new file that mostly is its content (unique both ways) moves there
   * and is replaced by that file's content, as an edit in place is (its id,
   * and the ids of chunks that did not change, stay). The rest are written as
   * new documents.
   */
  private async settleEditedMoves(folders: readonly string[]): Promise<void> {
    const candidates = this.editCandidates;
    this.editCandidates = [];
    if (candidates.length === 0) return;
    const { pairs, unpaired } = pairEdits(candidates, await unseenUnder(this.store, folders));
    const done = await this.store.transaction(async (tx) => {
      const out: Array<{ from: StoredDocument; to: EditCandidate<LoadedContent> }> = [];
      for (const { from, to } of pairs) {
        const doc = await tx.getDocument(from);
        if (!doc) continue;
        try {
          const metadata = movedMetadata({ from: goneDocument(doc), to });
          if (await tx.moveDocument(from, { source: to.path, base_dir: to.baseDir, metadata })) out.push({ from: doc, to });
        } catch {
          // Rolled back alone (a savepoint): the file is then written as a new document below.
        }
      }
      return out;
    });
    for (const { from, to } of done) {
      this.summary.moved++;
      this.opts.onChange?.({ source: to.path, change: "moved", chunks: 0, from: from.source });
      const moved = await this.store.getDocument(from.document_id);
      const pending = moved && this.prepareDocument(to.path, identityOf(moved), to.baseDir, to.fingerprint, to.held, pathMetadata(to.baseDir, to.path));
      if (pending) this.batch.add({ ...pending, replaces: true, movedFrom: from.source });
      if (this.batch.full()) await this.commitBatch();
    }
    const moved = new Set(done.map((m) => m.to.path));
    for (const c of unpaired.concat(pairs.map((p) => p.to).filter((c) => !moved.has(c.path)))) {
      const pending = this.prepareDocument(c.path, await identityFor(this.store, c.path), c.baseDir, c.fingerprint, c.held, pathMetadata(c.baseDir, c.path));
      if (pending) this.batch.add({ ...pending, replaces: false });
      if (this.batch.full()) await this.commitBatch();
      await this.breathe();
    }
    await this.finishWrites();
  }

  /**
   * Remove documents under `folder` whose source this walk did not see (scoped
   * to that folder only), a page at a time so memory stays flat however large
   * it is. By source, not row id: a document another writer replaced since
   * this walk saw its file is still that file's document.
   */
  private async prune(folder: string): Promise<void> {
    let after = 0;
    for (;;) {
      const page = await this.store.unseenDocumentsUnder(folder + sep, after, PRUNE_PAGE);
      if (page.length === 0) return;
      after = page[page.length - 1]!.rowid;
      const gone = page.filter((d) => d.source_class !== ("snapshot" satisfies SourceClass));
      if (gone.length === 0) continue;
      const removed = await this.store.transaction(async (tx) => {
        const out: typeof gone = [];
        for (const d of gone) if (await tx.deleteDocument(d.document_id)) out.push(d);
        return out;
      });
      this.summary.removed += removed.length;
      for (const d of removed) this.opts.onChange?.({ source: d.source, change: "removed", chunks: 0 });
    }
  }

  private async recordBaseDir(baseDir: string): Promise<void> {
    const dirs = new Set<string>(JSON.parse((await this.store.getMeta("base_dirs")) ?? "[]") as string[]);
    if (dirs.has(baseDir)) return;
    dirs.add(baseDir);
    await this.store.setMeta("base_dirs", JSON.stringify([...dirs].sort()));
  }

  /** Let the event loop run when synchronous work has held it for a while. */
  private async breathe(): Promise<void> {
    if (performance.now() - this.lastBreath < BREATHE_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    this.lastBreath = performance.now();
  }

  /** Record a failure; a file's previous index state stays (its source was marked seen, so pruning keeps it). */
  fail(source: string, err: GroundkitError): void {
    this.summary.failed.push({ source, code: err.code, message: err.message });
    this.progress(source);
  }

  private progress(current: string): void {
    this.opts.onProgress?.({
      files_seen: this.summary.files_seen,
      indexed: this.summary.indexed,
      unchanged: this.summary.unchanged,
      failed: this.summary.failed.length,
      current,
    });
  }

  get result(): IngestSummary {
    return this.summary;
  }
}

