/** Finding, opening, listing and dropping collections: where a collection lives and whether it exists. */
import { rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { checkCollectionName } from "../core/collection-name.js";
import { DEFAULTS } from "../core/config.js";
import type { StoreConfig } from "../store/store-config.js";
import { GroundkitError } from "../core/errors.js";
import { resolveExtractionLimits } from "../extract/limits.js";
import { backendOf, storeKindOf, type ReplicaStatus, type StoreProbe, type StoreReadiness } from "../store/backends.js";
import { Collection } from "./collection.js";
import { collectionNotFound } from "./not-found.js";
import type { CollectionLocation, OpenCollectionOptions } from "./types.js";

function locate(loc: CollectionLocation): { indexDir: string; name: string } {
  const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
  const name = checkCollectionName(loc.collection ?? DEFAULTS.collection);
  return { indexDir, name };
}

/** Open a collection. Throws COLLECTION_NOT_FOUND unless it exists or `create` is set. */
export async function openCollection(opts: OpenCollectionOptions = {}): Promise<Collection> {
  const { indexDir, name } = locate(opts);
  // Refuse bad limits up front, not once per file.
  resolveExtractionLimits(opts.extraction);
  const backend = await backendOf(opts.store);
  let opened;
  try {
    opened = await backend.open(
      { indexDir, name, store: opts.store },
      { create: opts.create ?? false, readonly: opts.readonly, vectorIndex: opts.vectorIndex },
    );
  } catch (err) {
    if (!(err instanceof GroundkitError) || err.code !== "COLLECTION_NOT_FOUND") throw err;
    throw await collectionNotFound(name, err.message, () => backend.list({ indexDir, store: opts.store }));
  }
  const col = new Collection(name, indexDir, opened, opts);
  col.createdNow = opened.createdNow;
  return col;
}

/** Names of the collections of a location's store: the files of its index dir, or the schemas of its PostgreSQL server. */
export async function listCollections(loc: { indexDir?: string | undefined; store: StoreConfig | undefined }): Promise<string[]> {
  return (await backendOf(loc.store)).list({ indexDir: resolve(loc.indexDir ?? DEFAULTS.indexDir), store: loc.store });
}

export type { ReplicaStatus, StoreProbe, StoreReadiness };
export { storeKindOf };

/** The file whose identity says a collection was deleted or replaced; undefined on a server-backed store. */
export async function collectionFile(loc: CollectionLocation): Promise<string | undefined> {
  const { indexDir, name } = locate(loc);
  return (await backendOf(loc.store)).fileOf({ indexDir, name, store: loc.store });
}

/**
 * Refuse `grk doctor` on a store that offers none of its checks (SQLite and PostgreSQL both do).
 *
 * @throws GroundkitError STORE_UNSUPPORTED
 */
export async function checkDoctorSupported(store: StoreConfig | undefined): Promise<void> {
  const backend = await backendOf(store);
  if (!backend.doctorChecks) {
    throw new GroundkitError(
      "STORE_UNSUPPORTED",
      `grk doctor cannot check collections in ${backend.kind}: that store offers none of its checks.`,
    );
  }
}

/** Whether the store behind the collections answers: always for SQLite files; a bounded ping for PostgreSQL. */
export function storeProbe(store: StoreConfig | undefined): StoreProbe {
  let probe: Promise<StoreProbe> | undefined;
  return {
    check: async () => {
      probe ??= backendOf(store).then((b) => b.probe());
      return (await probe).check();
    },
    close: async () => {
      if (probe) await (await probe).close();
      probe = undefined;
    },
  };
}

/**
 * Delete a collection: its index and its snapshots. Refused with
 * COLLECTION_BUSY while another writer holds it (this call does not wait).
 */
export async function deleteCollection(loc: CollectionLocation): Promise<void> {
  const { indexDir, name } = locate(loc);
  const backend = await backendOf(loc.store);
  try {
    await backend.drop({ indexDir, name, store: loc.store });
  } catch (err) {
    if (!(err instanceof GroundkitError) || err.code !== "COLLECTION_NOT_FOUND") throw err;
    throw await collectionNotFound(name, err.message, () => backend.list({ indexDir, store: loc.store }));
  }
  rmSync(join(indexDir, `${name}.snapshots`), { recursive: true, force: true });
}

/**
 * Remove a collection that holds no document (an ingest that created it
 * indexed nothing: a refused URL, a folder of unsupported files), so a failed
 * first ingest leaves no empty collection behind. Its recorded roots do not
 * keep it: a root that gave no document is no reason to exist. Best effort:
 * false when it holds anything, is busy with another writer (which may be
 * filling it) or cannot be opened. Its lock file stays (decision 0006).
 */
export async function removeIfUnused(loc: CollectionLocation): Promise<boolean> {
  try {
    const col = await openCollection(loc);
    let unused: boolean;
    try {
      const s = await col.status();
      unused = s.documents === 0;
    } finally {
      await col.close();
    }
    if (unused) await deleteCollection(loc);
    return unused;
  } catch {
    return false;
  }
}
