/**
 * The approximate-nearest-neighbour index for dense search: an HNSW graph
 * (usearch) DERIVED from the committed vectors in sqlite-vec, which stay the
 * source of truth (docs/decisions/0009-ann-vector-index.md).
 *
 * In memory it is three parts, all checked against the database inside the
 * caller's read transaction on every search:
 * - `base`: the saved data file, memory-mapped read-only (ann-file.ts), or, when
 *   there is no usable file, a graph a worker thread built for this handle
 *   (vector-index-thread.ts): searches are exact (sqlite-vec) until it is ready, and
 *   a build never runs on the event loop (docs/decisions/0036);
 * - `shadowed`: chunk rowids written or deleted since `base`'s state (vector_log,
 *   vector-log.ts); `base` hits on them are dropped: a deletion is honoured at once;
 * - `delta`: the current vectors of the shadowed rowids that still have one, searched exactly (no
 *   second graph), so a committed vector is never missed;
 * - `vectors`: the float vectors at `base`'s state (ann-vectors.ts) that `base`'s candidates are
 *   re-ranked by; a candidate is never shadowed, so its vector there is its committed one.
 *
 * The graph is only ever built or appended to by ONE thread, and nothing is ever removed from it
 * (usearch 2.26.2 strands nodes both ways, found by the dense torture; see the ADR):
 * - concurrent `add` can leave a node linked to nothing, unreachable by any search (usearch issue #735);
 * - `remove` frees the node's slot and the next `add` reuses it through usearch's `update`, which drops
 *   the slot's old links without reconnecting the nodes only they reached.
 * A changed vector is appended as another node under the same key (a `multi` index); the stale node
 * stays as a tombstone: a candidate like any other, re-ranked by the stored vector (or dropped when
 * there is none), counted, and gone at the next rebuild.
 * Catching up reads only the log rows after the last one applied. An index whose
 * recorded state is not an ancestor of the committed vectors (ahead of them, or
 * of another epoch, or its lineage pruned away) is never used: it is rebuilt.
 *
 * A writer folds the log into a new data file with {@link AnnIndex.sync} (ingest
 * does at its end); readers never write the database.
 */
import { GroundkitError } from "../../core/errors.js";
import type { VectorIndexStatus } from "../store.js";
import type { Db } from "./db.js";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  damagedAnnFiles,
  dataFileBytes,
  dataPath,
  migrateLegacyHeader,
  openDataFile,
  readAnnHeader,
  removeAnnFiles,
  saveAnnIndex,
  vectorsPath,
  type AnnHeader,
} from "./ann-file.js";
import { loadAnnLibrary, type AnnLibrary, type AnnSettings, type NativeAnnIndex } from "./ann-native.js";
import type { AnnOptions } from "./ann-options.js";
import { AnnVectors, AnnVectorsWriter, DamagedVectorsFile } from "./ann-vectors.js";
import { VECTOR_TABLE, countVectors, loadVectorExtension, vectorTableDefinition, type VectorHit } from "./vector-index.js";
import { countVectorChangesSince, isAncestor, pruneVectorLog, vectorChangesSince, vectorState, type VectorState } from "./vector-log.js";
import { buildGraphOnThread, type BuiltGraph, type GraphBuild } from "./vector-index-thread.js";

/** Measured default: below 10k vectors exact search is about as fast (bench/results/1m.md) and has recall 1. */
export const DEFAULT_MIN_VECTORS = 10_000;

/**
 * A filter passing at most this many chunks is searched exactly (sqlite-vec over
 * just those rowids): the measured crossover, bench/results/1m.md "filtered dense".
 */
export const DEFAULT_FILTER_EXACT_MAX = 2_000;

/**
 * usearch settings: an 8-bit graph (5x faster to build than f16 here, a quarter of
 * f32's size) whose candidates are re-ranked by the stored float vectors; see the ADR.
 */
const DEFAULT_SETTINGS: Omit<AnnSettings, "dimensions"> = {
  connectivity: 16,
  expansionAdd: 128,
  expansionSearch: 128,
  quantization: "i8",
};

/** Candidates beyond k re-ranked exactly (at least 3k). */
const RERANK_EXTRA = 40;

/** Log rows read per catch-up page, and vectors per build batch (bounded memory). */
const PAGE = 10_000;
/** More pending changes than this (or than half the vectors) and a rebuild beats applying them. */
const MAX_INCREMENTAL = 200_000;
/**
 * A sync folds pending changes into the saved graph only while they and the stale nodes it already carries
 * are few (at most this share of its vectors, or this many): every stale node is a wasted candidate and
 * memory; past that a sync rebuilds.
 */
const MAX_FOLD_FRACTION = 0.1;
const MAX_FOLD_MIN = 0;
/** Largest candidate list asked of the graph before a filtered search falls back to exact. */
const MAX_FETCH = 4096;
/** Threads for building: one. usearch 2.26.2's concurrent `add` strands nodes (issue #735; see the ADR). */
const BUILD_THREADS = 1;

interface Loaded {
  base: NativeAnnIndex;
  header: Omit<AnnHeader, "file" | "format">;
  delta: Map<number, Float32Array>;
  shadowed: Set<number>;
  /** `base`'s re-rank vectors; undefined for a graph built in memory or saved without them (read from sqlite-vec). */
  vectors?: AnnVectors;
  /** The state applied so far (seq and digest of the last log row applied). */
  applied: VectorState;
  count: number;
}

/** A plan for a query: the caller runs exact search when it is undefined. */
export class AnnIndex {
  private readonly settings: Omit<AnnSettings, "dimensions">;
  private readonly minVectors: number;
  readonly filterExactMax: number;
  private library: AnnLibrary | undefined;
  private unavailable: string | undefined;
  private loaded: Loaded | undefined;
  /** A vectors file found damaged while searching (re-ranked from sqlite-vec since), for status and doctor. */
  private damagedVectors: { file: string | undefined; why: string } | undefined;
  /** Count cached per state, so a small collection does not count on every search. */
  private counted: { seq: number; epoch: string; n: number } | undefined;
  /** The graph a worker thread is building for this handle (no usable saved index), and its private folder. */
  private graphBuild: { build: GraphBuild; dir: string } | undefined;
  /** Why the last graph build failed: searches stay exact (warned once) until a usable saved index appears. */
  private graphFailure: string | undefined;
  /** A saved data file that failed to open, not tried again on every search (by name: a new save has another). */
  private refusedFile: string | undefined;

  constructor(
    private readonly db: Db,
    private readonly dbPath: string,
    private readonly writable: boolean,
    private readonly opts: AnnOptions = {},
  ) {
    this.settings = { ...DEFAULT_SETTINGS, ...opts.settings };
    this.minVectors = opts.minVectors ?? DEFAULT_MIN_VECTORS;
    this.filterExactMax = opts.filterExactMax ?? DEFAULT_FILTER_EXACT_MAX;
  }

  /** Why search must be exact right now, or undefined when the ANN index may be used. */
  private exactReason(count: number): string | undefined {
    if (this.opts.mode === "exact") return "disabled (mode exact)";
    if (vectorState(this.db) === undefined) return "the collection file predates the vector log (open it writable once)";
    if (count < this.minVectors) return `small collection (${count} < ${this.minVectors} vectors: exact is as fast)`;
    if (this.library === undefined && this.unavailable === undefined) {
      const lib = loadAnnLibrary(this.opts.module);
      if ("library" in lib) this.library = lib.library;
      else this.unavailable = lib.error;
    }
    if (this.unavailable !== undefined) return `ANN library unavailable (${this.unavailable})`;
    return undefined;
  }

  private count(state: VectorState): number {
    const c = this.counted;
    if (c !== undefined && c.seq === state.seq && c.epoch === state.epoch) return c.n;
    const n = countVectors(this.db);
    this.counted = { seq: state.seq, epoch: state.epoch, n };
    return n;
  }

  /**
   * The `k` nearest committed vectors to unit vector `query` among `allowed`
   * (all when undefined) from the graph, or undefined when the caller must
   * search exactly (small collection, no library, a filter the graph cannot
   * satisfy within {@link MAX_FETCH} candidates). Run inside a read transaction.
   */
  search(query: Float32Array, k: number, allowed?: ReadonlySet<number>): VectorHit[] | undefined {
    const state = vectorState(this.db);
    if (state === undefined) return undefined;
    const count = this.count(state);
    if (this.exactReason(count) !== undefined) {
      this.replaceLoaded(undefined);
      return undefined;
    }
    const index = this.current(state);
    // No graph yet (one is building off the event loop, or could not be built): exact.
    if (index === undefined) return undefined;
    if (allowed !== undefined && allowed.size === 0) return [];
    // The graph ranks by 8-bit vectors: take more candidates than asked and rank them by the stored float vectors.
    const want = Math.max(3 * k, k + RERANK_EXTRA);
    // Widen by the filter's selectivity: the graph returns candidates in distance order.
    const selectivity = allowed === undefined ? 1 : Math.max(allowed.size / Math.max(count, 1), 1e-9);
    // Shadowed rowids (changed since the saved state) rarely fall among the candidates: a shortfall widens below.
    let fetch = Math.min(MAX_FETCH, Math.ceil(want / selectivity) + 8);
    // Changed since the saved graph: searched exactly.
    const changed = exactDelta(index.delta, query, k, allowed);
    for (;;) {
      const { hits, short } = this.collect(index, query, fetch, allowed);
      // A graph that returns fewer nodes than it holds and was asked for has unreachable ones: search exactly.
      if (short) return undefined;
      const exhausted = fetch >= index.base.size();
      if (hits.length >= want || exhausted || (fetch >= MAX_FETCH && hits.length + changed.length >= k)) {
        const vectors = index.vectors;
        const merged = [...this.rerank(query, hits.slice(0, want), vectors && ((rowid) => vectors.get(rowid))), ...changed];
        return merged.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid).slice(0, k);
      }
      if (fetch >= MAX_FETCH) return undefined;
      fetch = Math.min(MAX_FETCH, fetch * 4);
    }
  }

  /**
   * The exact top `k` among `allowed` by reading just those vectors (point reads,
   * cost proportional to the filter, not the collection: sqlite-vec's filtered
   * scan reads every vector). For selective filters. Run inside a read transaction.
   */
  exactAmong(query: Float32Array, k: number, allowed: ReadonlySet<number>): VectorHit[] {
    return this.rerank(query, [...allowed].map((rowid) => ({ rowid, distance: 0 })), this.savedVectorReader()).slice(0, k);
  }

  /**
   * Committed vectors by rowid from the saved index's vectors file (a changed rowid from `delta`), when the
   * graph is in use and already loaded or saved (never built just for this); else undefined: read sqlite-vec.
   */
  private savedVectorReader(): ((rowid: number) => Float32Array | undefined) | undefined {
    const state = vectorState(this.db);
    if (state === undefined) return undefined;
    const count = this.count(state);
    if (this.exactReason(count) !== undefined || (this.loaded === undefined && this.usableHeader() === undefined)) return undefined;
    const index = this.current(state);
    const vectors = index?.vectors;
    if (index === undefined || vectors === undefined) return undefined;
    return (rowid) => (index.shadowed.has(rowid) ? index.delta.get(rowid) : vectors.get(rowid));
  }

  /**
   * Exact cosine distances ({@link rankBy}) from `vectorOf` when given (the re-rank vectors file), else, or
   * when that file proves damaged, from sqlite-vec.
   */
  private rerank(query: Float32Array, hits: VectorHit[], vectorOf?: (rowid: number) => Float32Array | undefined): VectorHit[] {
    if (vectorOf !== undefined) {
      try {
        return rankBy(query, hits, vectorOf);
      } catch (err) {
        if (!(err instanceof DamagedVectorsFile)) throw err;
        // The re-rank vectors file changed under this process: stop using it and score from sqlite-vec.
        this.dropVectorsFile(err.message);
      }
    }
    const read = this.committedVectors();
    return read === undefined ? [] : rankBy(query, hits, read);
  }

  /** The loaded index's vectors file proved damaged: closed, never read again by this handle; status says so. */
  private dropVectorsFile(why: string): void {
    const l = this.loaded;
    if (l?.vectors === undefined) return;
    l.vectors.close();
    delete l.vectors;
    this.damagedVectors = { file: l.header.vectors, why };
  }

  /** A reader of committed vectors (unit) by rowid from sqlite-vec, or undefined when there is no vector table. */
  private committedVectors(): ((rowid: number) => Float32Array | undefined) | undefined {
    const def = vectorTableDefinition(this.db);
    if (def === undefined) return undefined;
    // The vec0 table needs sqlite-vec in this connection (loaded on first use: BM25-only installs lack it).
    loadVectorExtension(this.db);
    const read = this.db.prepare(`SELECT embedding FROM ${VECTOR_TABLE} WHERE rowid = ?`).pluck();
    return (rowid) => {
      const blob = read.get(BigInt(rowid)) as Buffer | undefined;
      return blob === undefined ? undefined : unitFromBlob(blob, def.dimensions);
    };
  }

  /** Every committed vector, unit, in the table's order (inside the caller's read transaction). */
  private forEachCommitted(dimensions: number, fn: (rowid: bigint, unit: Float32Array) => void): void {
    // The vec0 table needs sqlite-vec in this connection (loaded on first use: BM25-only installs lack it).
    loadVectorExtension(this.db);
    const rows = this.db.prepare(`SELECT rowid, embedding FROM ${VECTOR_TABLE}`).safeIntegers(true);
    for (const row of rows.iterate() as IterableIterator<{ rowid: bigint; embedding: Buffer }>) fn(row.rowid, unitFromBlob(row.embedding, dimensions));
  }

  /** Write the re-rank vectors file of every committed vector (inside the sync's read transaction, so at its state); its digest. */
  private writeVectorsFile(path: string, unique: string): string {
    const def = vectorTableDefinition(this.db)!;
    const writer = new AnnVectorsWriter(path, def.dimensions, unique);
    try {
      this.forEachCommitted(def.dimensions, (rowid, unit) => writer.add(Number(rowid), unit));
      writer.finish();
      return writer.digest!;
    } catch (err) {
      writer.abort();
      throw err;
    }
  }

  /**
   * The vectors file for a fold: `from`'s file (at its state) with the `changed` rowids' current vectors in place
   * of their old ones (a deleted one left out), so a fold copies a file instead of scanning sqlite-vec (at 1M,
   * 25.6 s against 8.1 s for the graph alone). Without a usable old file, or when the result would not hold
   * exactly `count` vectors, it scans.
   */
  private patchVectorsFile(from: AnnHeader, changed: ReadonlySet<number>, count: number, path: string, unique: string): string {
    const oldPath = vectorsPath(this.dbPath, from);
    const old = oldPath === undefined ? undefined : AnnVectors.open(oldPath, from.settings.dimensions, from.count);
    if (old === undefined) return this.writeVectorsFile(path, unique);
    const read = this.committedVectors()!;
    const writer = new AnnVectorsWriter(path, from.settings.dimensions, unique);
    try {
      old.forEach((rowid, unit) => {
        if (!changed.has(rowid)) writer.add(rowid, unit);
      });
      for (const rowid of changed) {
        const v = read(rowid);
        if (v !== undefined) writer.add(rowid, v);
      }
      if (writer.written !== count) {
        writer.abort();
        return this.writeVectorsFile(path, unique);
      }
      writer.finish();
      return writer.digest!;
    } catch (err) {
      if (err instanceof DamagedVectorsFile) {
        // The old file changed under us: write the new one from sqlite-vec instead.
        writer.abort();
        return this.writeVectorsFile(path, unique);
      }
      writer.abort();
      throw err;
    } finally {
      old.close();
    }
  }

  /** Swap the in-memory index, closing the re-rank vectors file of the one it replaces. */
  private replaceLoaded(next: Loaded | undefined): void {
    if (this.loaded !== undefined && this.loaded !== next && this.loaded.vectors !== next?.vectors) this.loaded.vectors?.close();
    this.loaded = next;
  }

  /** Let go of the open files (the store is closing), and stop a graph build in flight. */
  close(): void {
    this.replaceLoaded(undefined);
    this.stopGraphBuild();
  }

  private stopGraphBuild(): void {
    const running = this.graphBuild;
    if (running === undefined) return;
    this.graphBuild = undefined;
    // The folder goes once the thread is gone (a save into a removed folder fails, so nothing is left either way).
    void running.build.stop().finally(() => removeBuildDir(running.dir));
  }

  /**
   * Start building this handle's graph on a worker thread, unless one is building or the last one failed.
   * The worker reads the committed vectors on its own connection and saves the graph to a private file in
   * a fresh temporary folder; {@link installGraph} maps it. Concurrent searches share the one build.
   */
  private startGraphBuild(): void {
    if (this.graphBuild !== undefined || this.graphFailure !== undefined) return;
    const dir = mkdtempSync(join(tmpdir(), "grk-ann-graph-"));
    buildDirs.add(dir);
    removeBuildDirsAtExit();
    const file = join(dir, "graph.usearch");
    const build = buildGraphOnThread({ path: this.dbPath, vectorIndex: this.opts, graphFile: file });
    const running = { build, dir };
    this.graphBuild = running;
    build.result.then(
      (graph) => {
        if (this.graphBuild !== running) return; // Stopped (the handle closed): the folder goes with it.
        this.graphBuild = undefined;
        try {
          this.installGraph(file, graph);
        } catch (err) {
          this.graphFailed(err);
        } finally {
          removeBuildDir(dir);
        }
      },
      (err: unknown) => {
        if (this.graphBuild !== running) return;
        this.graphBuild = undefined;
        removeBuildDir(dir);
        this.graphFailed(err);
      },
    );
  }

  /** A build that failed leaves search exact (the results it gave before the ANN index existed), said once. */
  private graphFailed(err: unknown): void {
    const why = err instanceof Error ? err.message : String(err);
    this.graphFailure = why;
    process.stderr.write(`groundkit: warning: the HNSW graph of ${this.dbPath} could not be built (${why}); dense search is exact (slower at scale). \`grk doctor --repair\` saves the index.\n`);
  }

  /**
   * Map the worker's graph (its file is private and unlinked right after, as openDataFile does with a saved one).
   * Kept only when nothing newer was loaded meanwhile (a writer saved an index); the next search catches it up
   * from the log, or, when it is no longer an ancestor of the vectors, builds again.
   */
  private installGraph(file: string, graph: BuiltGraph): void {
    if (this.loaded !== undefined || this.library === undefined || graph.library !== this.library.name) return;
    // A writer saved an index meanwhile: the next search maps that one.
    const saved = this.usableHeader();
    if (saved !== undefined && saved.file !== this.refusedFile) return;
    const base = this.library.create(graph.settings);
    base.view(file);
    const header = { ...graph.state, library: graph.library, settings: graph.settings, count: graph.count, tombstones: 0 };
    this.replaceLoaded({ base, header, delta: new Map(), shadowed: new Set(), applied: stateOf(graph.state), count: graph.count });
  }

  /**
   * Worker thread only (vector-index-job.ts): the graph of every committed vector, saved to `file` and
   * nowhere else, at the state of one read transaction.
   */
  buildGraphFile(file: string): BuiltGraph {
    return this.db.transaction((): BuiltGraph => {
      const state = vectorState(this.db);
      if (state === undefined) throw new GroundkitError("NO_VECTORS", "This collection has no vector log yet.");
      const count = countVectors(this.db);
      const exact = this.exactReason(count);
      if (exact !== undefined) throw new GroundkitError("NO_VECTORS", `No HNSW graph is built for this collection: ${exact}.`);
      const built = this.build(state, count);
      built.base.save(file);
      return { state: stateOf(state), settings: built.header.settings, library: this.library!.name, count: built.count };
    })();
  }

  private collect(index: Loaded, query: Float32Array, fetch: number, allowed?: ReadonlySet<number>): { hits: VectorHit[]; short: boolean } {
    const hits: VectorHit[] = [];
    let short = false;
    const take = (native: NativeAnnIndex, skipShadowed: boolean): void => {
      if (native.size() === 0) return;
      const asked = Math.min(fetch, native.size());
      const r = native.search(query, asked, 1);
      if (r.keys.length < asked) short = true;
      const seen = new Set<number>();
      for (let i = 0; i < r.keys.length; i++) {
        const rowid = Number(r.keys[i]);
        // A changed vector's stale node carries the same key: the nearer node stands for it (re-ranked anyway).
        if (seen.has(rowid)) continue;
        seen.add(rowid);
        if (skipShadowed && index.shadowed.has(rowid)) continue;
        if (allowed !== undefined && !allowed.has(rowid)) continue;
        // The graph's own distance (8-bit units, not cosine): it only orders candidates for re-ranking.
        hits.push({ rowid, distance: r.distances[i]! });
      }
    };
    take(index.base, true);

    return { hits: hits.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid), short };
  }

  /**
   * The in-memory index brought to `state`: caught up or reloaded as needed; undefined (search exactly) while
   * there is no usable saved index and a graph is built off the event loop instead.
   */
  private current(state: VectorState): Loaded | undefined {
    const l = this.loaded;
    if (l !== undefined && l.applied.seq === state.seq && l.applied.epoch === state.epoch && l.applied.checksum === state.checksum) {
      return l;
    }
    if (l !== undefined && isAncestor(this.db, l.applied) && countVectorChangesSince(this.db, l.applied.seq) <= MAX_INCREMENTAL) {
      this.catchUp(l);
      return l;
    }
    const next = this.fromFile();
    this.replaceLoaded(next);
    if (next === undefined) {
      this.startGraphBuild();
      return undefined;
    }
    // A writer saved an index while this handle was building its own graph: that build is not needed.
    this.stopGraphBuild();
    if (next.applied.seq !== state.seq) this.catchUp(next);
    return next;
  }

  /** The saved index, when its header is an ancestor of the committed vectors and matches these settings. */
  private fromFile(): Loaded | undefined {
    const header = this.usableHeader();
    if (header === undefined) return undefined;
    if (header.file === this.refusedFile) return undefined;
    if (countVectorChangesSince(this.db, header.seq) > Math.max(MAX_INCREMENTAL, header.count / 2)) return undefined;
    const base = this.library!.create(header.settings);
    try {
      openDataFile(base, this.dbPath, header);
    } catch {
      this.refusedFile = header.file;
      return undefined; // A missing or damaged data file: built again.
    }
    const path = vectorsPath(this.dbPath, header);
    // Without its re-rank vectors (an index from before them, or the file lost) the graph still serves: re-ranked from sqlite-vec.
    const vectors = path === undefined ? undefined : AnnVectors.open(path, header.settings.dimensions, header.count);
    if (path !== undefined && vectors === undefined && AnnVectors.exists(path, header.settings.dimensions, header.count)) {
      this.damagedVectors = { file: header.vectors, why: "it is complete but does not read back as saved" };
    }
    return { base, header, delta: new Map(), shadowed: new Set(), ...(vectors ? { vectors } : {}), applied: stateOf(header), count: header.count };
  }

  private usableHeader(): AnnHeader | undefined {
    const header = readAnnHeader(this.dbPath);
    const def = vectorTableDefinition(this.db);
    if (header === undefined || def === undefined || this.library === undefined) return undefined;
    const s = header.settings;
    const want = this.settings;
    if (
      header.library !== this.library.name ||
      s.dimensions !== def.dimensions ||
      s.connectivity !== want.connectivity ||
      s.expansionAdd !== want.expansionAdd ||
      s.quantization !== want.quantization
    ) {
      return undefined;
    }
    if (!isAncestor(this.db, stateOf(header))) return undefined;
    // A data file truncated or replaced since it was saved is never used (a size check: `grk doctor` reads it whole).
    if (header.file_bytes !== undefined && fileSize(dataPath(this.dbPath, header)) !== header.file_bytes) return undefined;
    // Search breadth may differ from the file's: it is a query-time setting.
    return { ...header, settings: { ...s, expansionSearch: want.expansionSearch } };
  }

  /** Apply every log row after `l.applied`: shadow the rowid, and put its current vector (if any) in `delta`. */
  private catchUp(l: Loaded): void {
    const read = this.committedVectors();
    if (read === undefined) throw new GroundkitError("NO_VECTORS", "This collection has no vectors yet.");
    const checksumAt = this.db.prepare("SELECT checksum FROM vector_log WHERE seq = ?").pluck();
    for (;;) {
      const changes = vectorChangesSince(this.db, l.applied.seq, PAGE);
      if (changes.length === 0) break;
      for (const c of changes) {
        l.shadowed.add(c.rowid);
        l.delta.delete(c.rowid);
        const v = read(c.rowid);
        if (v !== undefined) l.delta.set(c.rowid, v);
      }
      const last = changes[changes.length - 1]!;
      l.applied = { epoch: l.applied.epoch, seq: last.seq, checksum: checksumAt.get(last.seq) as string };
    }
  }

  /** A fresh graph of every committed vector, at `state` (the caller's read transaction holds it still). */
  private build(state: VectorState, count: number, onProgress?: (done: number, total: number) => void): Loaded {
    const def = vectorTableDefinition(this.db);
    if (def === undefined) throw new GroundkitError("NO_VECTORS", "This collection has no vectors yet.");
    const settings: AnnSettings = { ...this.settings, dimensions: def.dimensions };
    const base = this.library!.create(settings);
    const d = def.dimensions;
    let keys = new BigUint64Array(PAGE);
    let batch = new Float32Array(PAGE * d);
    let n = 0;
    let done = 0;
    const flush = (): void => {
      if (n === 0) return;
      base.add(keys.subarray(0, n), batch.subarray(0, n * d), BUILD_THREADS);
      done += n;
      n = 0;
      keys = new BigUint64Array(PAGE);
      batch = new Float32Array(PAGE * d);
      onProgress?.(done, count);
    };
    this.forEachCommitted(d, (rowid, unit) => {
      keys[n] = rowid;
      batch.set(unit, n * d);
      if (++n === PAGE) flush();
    });
    flush();
    const header = { ...state, library: this.library!.name, settings, count: done, tombstones: 0 };
    return { base, header, delta: new Map(), shadowed: new Set(), applied: state, count: done };
  }

  /**
   * Writer only (the caller holds the collection's writer lock): fold the log into
   * a new saved index (or build one), and prune the log up to it. Returns the status after.
   */
  sync(onProgress?: (done: number, total: number) => void): VectorIndexStatus {
    if (!this.writable) throw new GroundkitError("INTERNAL", "The vector index is synced by a writer only.");
    migrateLegacyHeader(this.dbPath);
    const plan = this.db.transaction(() => {
      const state = vectorState(this.db);
      if (state === undefined) return undefined;
      const count = countVectors(this.db);
      if (this.exactReason(count) !== undefined) {
        if (count === 0) removeAnnFiles(this.dbPath);
        return undefined;
      }
      const header = this.usableHeader();
      const writeVectors = (path: string, unique: string): string => this.writeVectorsFile(path, unique);
      if (header !== undefined && header.seq === state.seq) {
        const path = vectorsPath(this.dbPath, header);
        if (path !== undefined && AnnVectors.exists(path, header.settings.dimensions, header.count)) return { header, state };
        // Saved without its re-rank vectors (by an earlier version, or the file was lost): write them beside the same graph.
        const saved = saveAnnIndex(this.dbPath, { keep: header.file }, header, writeVectors);
        this.replaceLoaded(undefined);
        return { header: saved, state };
      }
      let index: Loaded;
      let vectorsFile = writeVectors;
      const pending = header === undefined ? Infinity : countVectorChangesSince(this.db, header.seq);
      if (header !== undefined && pending + (header.tombstones ?? 0) <= Math.max(MAX_FOLD_MIN, header.count * MAX_FOLD_FRACTION)) {
        const fold = this.foldIntoCopy(header, count);
        index = fold.index;
        vectorsFile = (path, unique) => this.patchVectorsFile(header, fold.changed, count, path, unique);
      } else {
        index = this.build(state, count, onProgress);
      }
      let saved: AnnHeader;
      try {
        saved = saveAnnIndex(this.dbPath, index.base, { ...index.header, ...index.applied, count: index.count }, vectorsFile);
      } catch (err) {
        throw new GroundkitError("VECTOR_INDEX_UNWRITABLE", `The HNSW index beside ${this.dbPath} could not be saved.`, undefined, {
          cause: err,
        });
      }
      this.replaceLoaded(undefined);
      return { header: saved, state: index.applied };
    })();
    if (plan !== undefined) this.db.transaction(() => pruneVectorLog(this.db, plan.header.seq)).immediate();
    if (plan !== undefined) {
      // Searches map the saved index from now on: a graph this handle was building for them is not needed.
      this.stopGraphBuild();
      this.graphFailure = undefined;
    }
    return this.status();
  }

  /**
   * The saved index loaded into memory (writable, unlike a mapped view) with the current vector of every
   * rowid changed since appended as a new node, in one single-threaded batch. Nothing is removed (see the
   * file comment): the nodes the changes superseded stay as tombstones. `count`: the committed vectors now.
   */
  private foldIntoCopy(header: AnnHeader, count: number): { index: Loaded; changed: ReadonlySet<number> } {
    const def = vectorTableDefinition(this.db)!;
    const base = this.library!.create(header.settings);
    base.load(dataPath(this.dbPath, header));
    const read = this.committedVectors()!;
    const checksumAt = this.db.prepare("SELECT checksum FROM vector_log WHERE seq = ?").pluck();
    let applied = stateOf(header);
    const changed = new Set<number>();
    for (;;) {
      const changes = vectorChangesSince(this.db, applied.seq, PAGE);
      if (changes.length === 0) break;
      for (const c of changes) changed.add(c.rowid);
      const last = changes[changes.length - 1]!;
      applied = { epoch: applied.epoch, seq: last.seq, checksum: checksumAt.get(last.seq) as string };
    }
    const d = def.dimensions;
    const keys: bigint[] = [];
    const vectors = new Float32Array(changed.size * d);
    for (const rowid of changed) {
      const v = read(rowid);
      if (v === undefined) continue; // Deleted: its node is a tombstone now.
      vectors.set(v, keys.length * d);
      keys.push(BigInt(rowid));
    }
    if (keys.length > 0) base.add(BigUint64Array.from(keys), vectors.subarray(0, keys.length * d), BUILD_THREADS);
    // Every committed vector has exactly one current node; every other node is a tombstone.
    const tombstones = base.size() - count;
    return { index: { base, header: { ...header, count, tombstones }, delta: new Map(), shadowed: new Set(), applied, count }, changed };
  }

  /**
   * What is wrong with the saved index's files, reading them whole (`grk doctor`): a data file truncated,
   * replaced or overwritten since its save, a vectors file whose bytes changed. Empty when nothing is.
   */
  damagedFiles(): string[] {
    const header = readAnnHeader(this.dbPath);
    if (header === undefined) return [];
    const found = damagedAnnFiles(this.dbPath, header);
    const seen = this.damagedVectors;
    if (seen !== undefined && seen.file === header.vectors && found.length === 0) found.push(`its re-rank vectors file failed a search: ${seen.why}`);
    return found;
  }

  /** Writer only: throw the saved files away and save the index anew from the committed vectors. */
  rebuild(onProgress?: (done: number, total: number) => void): VectorIndexStatus {
    if (!this.writable) throw new GroundkitError("INTERNAL", "The vector index is rebuilt by a writer only.");
    this.replaceLoaded(undefined);
    this.damagedVectors = undefined;
    removeAnnFiles(this.dbPath);
    return this.sync(onProgress);
  }

  /** What `grk status` shows: read from the header and the log, without loading the index. */
  status(): VectorIndexStatus {
    const saved = this.savedStatus();
    // This handle's searches: exact while its own graph builds (no saved index it can use), or for good after a failed build.
    if (saved.kind !== "hnsw" || this.loaded !== undefined) return saved;
    const usable = saved.state !== "missing" && saved.state !== "stale" && this.usableHeader()?.file !== this.refusedFile;
    if (usable) return saved;
    if (this.graphFailure !== undefined) return { ...saved, kind: "exact", reason: `the HNSW graph could not be built (${this.graphFailure})` };
    if (this.graphBuild !== undefined) {
      return { ...saved, kind: "exact", reason: "no usable saved HNSW index: this process is building its graph on a worker thread, and searches are exact until it is ready" };
    }
    return saved;
  }

  /**
   * The saved index's state, read from the header and the log, whatever this
   * handle's own searches use meanwhile (a graph it is building, see {@link status}).
   */
  savedStatus(): VectorIndexStatus {
    return this.db.transaction((): VectorIndexStatus => {
      const state = vectorState(this.db);
      const count = countVectors(this.db);
      const exact = (reason: string): VectorIndexStatus => ({
        kind: "exact",
        reason,
        library: this.library?.name ?? null,
        state: "none",
        vectors: count,
        indexed_vectors: 0,
        pending_changes: 0,
        file_bytes: 0,
      });
      if (count === 0) return exact("no vectors");
      const reason = state === undefined ? "no vector log" : this.exactReason(count);
      if (reason !== undefined || state === undefined) return exact(reason ?? "no vector log");
      const raw = readAnnHeader(this.dbPath);
      const header = this.usableHeader();
      const base = { kind: "hnsw" as const, reason: null, library: this.library!.name, vectors: count };
      if (header === undefined) {
        return { ...base, state: raw === undefined ? "missing" : "stale", indexed_vectors: 0, pending_changes: 0, file_bytes: raw ? dataFileBytes(this.dbPath, raw) : 0 };
      }
      const pending = countVectorChangesSince(this.db, header.seq);
      const vectors = vectorsPath(this.dbPath, header);
      return {
        ...base,
        state: pending === 0 ? "current" : "behind",
        indexed_vectors: header.count,
        pending_changes: pending,
        file_bytes: dataFileBytes(this.dbPath, header),
        rerank_vectors:
          vectors !== undefined &&
          this.damagedVectors?.file !== header.vectors &&
          AnnVectors.exists(vectors, header.settings.dimensions, header.count),
      };
    })();
  }
}

/**
 * Exact cosine distances from the stored vectors, ascending (ties by rowid). A
 * candidate whose vector is gone is dropped: a second guard, after shadowing,
 * that a deleted chunk is never returned.
 */
function rankBy(query: Float32Array, hits: VectorHit[], read: (rowid: number) => Float32Array | undefined): VectorHit[] {
  const out: VectorHit[] = [];
  for (const h of hits) {
    const v = read(h.rowid);
    if (v === undefined) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    out.push({ rowid: h.rowid, distance: Math.min(2, Math.max(0, 1 - dot)) });
  }
  return out.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid);
}

function fileSize(path: string): number | undefined {
  try {
    return statSync(path).size;
  } catch {
    return undefined;
  }
}

/** The exact top `k` of the in-memory changed vectors (unit vectors: cosine distance = 1 - dot). */
function exactDelta(delta: ReadonlyMap<number, Float32Array>, query: Float32Array, k: number, allowed?: ReadonlySet<number>): VectorHit[] {
  const out: VectorHit[] = [];
  for (const [rowid, v] of delta) {
    if (allowed !== undefined && !allowed.has(rowid)) continue;
    let dot = 0;
    for (let i = 0; i < v.length; i++) dot += v[i]! * query[i]!;
    out.push({ rowid, distance: Math.min(2, Math.max(0, 1 - dot)) });
  }
  return out.sort((a, b) => a.distance - b.distance || a.rowid - b.rowid).slice(0, k);
}

function stateOf(h: VectorState): VectorState {
  return { epoch: h.epoch, seq: h.seq, checksum: h.checksum };
}

/** A stored vector as a unit Float32Array (an earlier version's cosine table stores vectors as given). */
function unitFromBlob(blob: Buffer, dims: number): Float32Array {
  const v = new Float32Array(dims);
  new Uint8Array(v.buffer).set(blob.subarray(0, dims * 4));
  let squares = 0;
  for (let i = 0; i < dims; i++) squares += v[i]! * v[i]!;
  if (Math.abs(squares - 1) > 1e-4 && squares > 0) {
    const inv = 1 / Math.sqrt(squares);
    for (let i = 0; i < dims; i++) v[i] = v[i]! * inv;
  }
  return v;
}

/** Folders of graph builds in flight, removed when the process exits with one (a killed build leaves nothing behind). */
const buildDirs = new Set<string>();
let exitHookSet = false;

function removeBuildDirsAtExit(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once("exit", () => {
    for (const dir of buildDirs) rmSync(dir, { recursive: true, force: true });
  });
}

function removeBuildDir(dir: string): void {
  buildDirs.delete(dir);
  rmSync(dir, { recursive: true, force: true });
}
