/** Copying a collection into an empty one, on the same or the other store, keeping every id and offset. */
import { cpSync, existsSync } from "node:fs";
import { resolve } from "node:path";
import { GroundkitError } from "../core/errors.js";
import type { DocumentWrite } from "../store/store.js";
import type { CollectionCore } from "./core.js";
import type { LockWaitOptions } from "./types.js";

/** Documents copied per transaction by {@link copyCollection}. */
const COPY_PAGE = 200;
/** Kept versions of the document history copied per transaction. */
const HISTORY_PAGE = 200;

/** Meta keys each store keeps for itself, never copied between collections. */
const STORE_OWN_META = new Set(["generation", "application_id", "schema_version", "writer_holder"]);

/**
 * Copy `source` into `target`, an empty collection (on the same or
 * the other store), keeping every document and chunk id, offset and hash,
 * so a citation verified here verifies there; vectors, the recorded
 * chunking and embedding identity, URL snapshots and the document history
 * (every kept version, oldest first) come along. Holds the target's writer
 * lock; writes a page of documents, then of versions, per transaction.
 */
export async function copyCollection(
  source: CollectionCore,
  target: CollectionCore,
  opts: LockWaitOptions & { onProgress?: ((done: number, total: number) => void) | undefined } = {},
): Promise<{ documents: number; chunks: number; vectors: number; history_versions: number }> {
  return target.writing("copy", opts, async () => {
    if ((await target.store.stats()).documents > 0) {
      throw new GroundkitError("INVALID_ARGUMENT", `Collection '${target.name}' (${target.path}) is not empty; copy into a new collection.`);
    }
    const total = (await source.store.stats()).documents;
    const done = { documents: 0, chunks: 0, vectors: 0, history_versions: 0 };
    for (let after = 0; ; ) {
      const page = await source.store.documentsAfter(after, COPY_PAGE);
      if (page.length === 0) break;
      const writes: DocumentWrite[] = [];
      for (const ref of page) {
        const doc = await source.store.getDocument(ref.document_id);
        if (!doc) continue; // deleted since the page was read
        const chunks = await source.store.chunksOf(ref.document_id);
        const vectors = await source.store.vectorsOf(chunks.map((c) => c.rowid));
        // A document's vectors go with it only when every chunk has one; the rest are backfilled by `ingest --dense`.
        const all = chunks.length > 0 && chunks.every((c) => vectors.has(c.rowid));
        writes.push({ doc, chunks: chunks.map(({ rowid: _rowid, ...c }) => c), vectors: all ? chunks.map((c) => vectors.get(c.rowid)!) : undefined });
      }
      await target.store.transaction(async (tx) => {
        // One batch per page (a few statements on PostgreSQL); any document that fails rolls the whole page back.
        const failed = (await tx.replaceDocuments(writes)).find((err) => err !== undefined);
        if (failed !== undefined) throw failed;
      });
      for (const w of writes) {
        done.documents++;
        done.chunks += w.chunks.length;
        done.vectors += w.vectors?.reduce((n, v) => n + v.length, 0) ?? 0;
      }
      after = page[page.length - 1]!.rowid;
      opts.onProgress?.(done.documents, total);
    }
    done.history_versions = await copyHistory(source, target);
    // What the collection recorded (chunking, embedding identity, base dirs, last ingest), not the store's own bookkeeping.
    for (const [key, value] of Object.entries(await source.store.allMeta())) {
      if (!STORE_OWN_META.has(key)) await target.store.setMeta(key, value);
    }
    if (resolve(source.snapshots.dir) !== resolve(target.snapshots.dir) && existsSync(source.snapshots.dir)) {
      cpSync(source.snapshots.dir, target.snapshots.dir, { recursive: true });
    }
    // As after an ingest: the target's vector index (pgvector HNSW, or SQLite's opt-in ANN) catches up under the lock.
    await target.store.syncVectorIndex();
    return done;
  });
}

/** Every kept version of `source`'s document history into `target`, oldest first, a page per transaction; how many. */
async function copyHistory(source: CollectionCore, target: CollectionCore): Promise<number> {
  let copied = 0;
  for (let after = 0; ; ) {
    const page = await source.store.historyPage(after, HISTORY_PAGE);
    if (page.length === 0) return copied;
    await target.store.transaction((tx) => tx.writeHistory(page));
    copied += page.length;
    after = page[page.length - 1]!.version.version_id;
  }
}
