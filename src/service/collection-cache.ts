/**
 * Open collection handles shared by every request of a server. Handles are
 * reused (opening SQLite and preparing statements per request would dominate a
 * search); results are never cached: a WAL reader sees every commit made since
 * its last statement, so a search after an ingest (by this server or by `grk
 * ingest` in another process) sees the new content (the rows a store keeps of
 * earlier hits are keyed so that a commit never leaves one stale:
 * store/chunk-row-cache.ts).
 *
 * A collection file that was deleted or replaced on disk (its inode changed) is
 * reopened; the stale handle is closed once no request holds it. Asking about a
 * collection never creates it; only a mutating call may.
 */
import { statSync } from "node:fs";
import { resolve } from "node:path";
import {
  Collection,
  collectionFile,
  listCollections,
  openCollection,
  removeIfUnused,
  storeKindOf,
  storeProbe,
  type StoreProbe,
  type StoreReadiness,
} from "../collection/index.js";
import type { CollectionSettings } from "../collection/settings.js";
import { checkCollectionName } from "../core/collection-name.js";
import { GroundkitError } from "../core/errors.js";

interface Entry {
  collection: Collection;
  /** Identity of the file the handle was opened on (inode numbers can be reused, birth times rarely). */
  id: FileId;
  leases: number;
  retired: boolean;
}

/** Options for {@link CollectionCache.use}. */
export interface UseOptions {
  /** Create the collection when missing (mutating tools only). Writers take turns by the collection's writer lock. */
  create?: boolean;
}

/**
 * A cache of open collections in one index directory.
 *
 * @example
 *   const cache = new CollectionCache(".groundkit");
 *   const hits = await cache.use("default", (col) => col.search("offsets"));
 *   await cache.closeAll();
 */
export class CollectionCache {
  readonly indexDir: string;
  private readonly entries = new Map<string, Entry>();
  private readonly retired = new Set<Entry>();
  /** Handles being opened, so two requests for one collection at once open it once. */
  private readonly opening = new Map<string, Promise<Entry>>();
  private probe: StoreProbe | undefined;

  constructor(
    indexDir: string,
    private readonly settings: CollectionSettings = {},
  ) {
    this.indexDir = resolve(indexDir);
  }

  /** Names of the collections in the index directory (or the PostgreSQL server). */
  names(): Promise<string[]> {
    return listCollections({ indexDir: this.indexDir, store: this.settings.store });
  }

  /** Whether the store answers (readyz): always for SQLite files, a bounded ping for PostgreSQL, with its read replicas' lag. */
  storeReady(): Promise<StoreReadiness> {
    this.probe ??= storeProbe(this.settings.store);
    return this.probe.check();
  }

  /** `postgres` or `sqlite`, for readyz. */
  get storeKind(): string {
    return storeKindOf(this.settings.store);
  }

  /** Remove collection `name` of this cache's store if it holds nothing (see removeIfUnused). */
  removeIfUnused(name: string): Promise<boolean> {
    return removeIfUnused({ indexDir: this.indexDir, collection: checkCollectionName(name), store: this.settings.store });
  }

  /** Run `fn` with an open handle on `name`; the handle stays open for later calls. */
  async use<T>(name: string, fn: (col: Collection) => Promise<T> | T, opts: UseOptions = {}): Promise<T> {
    const entry = await this.acquire(checkCollectionName(name), opts.create ?? false);
    try {
      return await fn(entry.collection);
    } finally {
      this.release(entry);
    }
  }

  /** Handles open now (current and retired ones still in use), for the open-collections gauge. */
  openCount(): number {
    return this.entries.size + this.retired.size;
  }

  /** Run `fn` with open handles on several collections (in the order named), each held until it returns. */
  async useMany<T>(names: readonly string[], fn: (cols: Collection[]) => Promise<T> | T): Promise<T> {
    const entries: Entry[] = [];
    try {
      for (const name of names) entries.push(await this.acquire(checkCollectionName(name), false));
      return await fn(entries.map((e) => e.collection));
    } finally {
      for (const e of entries) this.release(e);
    }
  }

  /** Close every handle (server shutdown). */
  async closeAll(): Promise<void> {
    const probe = this.probe;
    this.probe = undefined;
    const entries = [...this.entries.values(), ...this.retired];
    this.entries.clear();
    this.retired.clear();
    await probe?.close();
    for (const entry of entries) await entry.collection.close();
  }

  /** A leased handle on `name`, opening it (once, however many ask at the same time) when needed. */
  private async acquire(name: string, create: boolean): Promise<Entry> {
    for (let pending = this.opening.get(name); pending; pending = this.opening.get(name)) await pending.catch(() => undefined);
    const opening = this.acquireNow(name, create);
    this.opening.set(name, opening);
    try {
      return await opening;
    } finally {
      if (this.opening.get(name) === opening) this.opening.delete(name);
    }
  }

  private async acquireNow(name: string, create: boolean): Promise<Entry> {
    const file = await collectionFile({ indexDir: this.indexDir, collection: name, store: this.settings.store });
    if (file === undefined) return this.acquireServerBacked(name, create);
    let id = fileId(file);
    let entry = this.entries.get(name);
    if (entry && (!id || !sameFile(id, entry.id))) {
      this.retire(name, entry);
      entry = undefined;
    }
    if (!entry) {
      if (!id && !create) {
        // Our own message: openCollection's would name the index directory.
        throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist.`);
      }
      const collection = await openCollection({ ...this.settings, indexDir: this.indexDir, collection: name, create });
      id = fileId(file);
      if (!id) {
        await collection.close();
        throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${name}' does not exist.`);
      }
      entry = { collection, id, leases: 0, retired: false };
      this.entries.set(name, entry);
    }
    entry.leases++;
    return entry;
  }

  /** A PostgreSQL collection has no file to watch: its handle is opened once (openCollection says if it is missing). */
  private async acquireServerBacked(name: string, create: boolean): Promise<Entry> {
    let entry = this.entries.get(name);
    if (!entry) {
      const collection = await openCollection({ ...this.settings, indexDir: this.indexDir, collection: name, create });
      entry = { collection, id: SERVER_BACKED, leases: 0, retired: false };
      this.entries.set(name, entry);
    }
    entry.leases++;
    return entry;
  }

  private release(entry: Entry): void {
    entry.leases--;
    if (entry.retired && entry.leases === 0) {
      this.retired.delete(entry);
      void entry.collection.close();
    }
  }

  private retire(name: string, entry: Entry): void {
    this.entries.delete(name);
    entry.retired = true;
    if (entry.leases === 0) void entry.collection.close();
    else this.retired.add(entry);
  }
}

interface FileId {
  dev: number;
  ino: number;
  born: number;
}

/** The identity of a collection that is not a file. */
const SERVER_BACKED: FileId = { dev: -1, ino: -1, born: -1 };

function sameFile(a: FileId, b: FileId): boolean {
  return a.dev === b.dev && a.ino === b.ino && a.born === b.born;
}

function fileId(file: string): FileId | undefined {
  try {
    const s = statSync(file);
    return s.isFile() ? { dev: s.dev, ino: s.ino, born: s.birthtimeMs } : undefined;
  } catch {
    return undefined;
  }
}
