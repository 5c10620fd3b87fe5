/** A collection's documents: listing them, reading a line range, finding one by reference, removing them. */
import { isAbsolute, resolve, sep } from "node:path";
import { GroundkitError } from "../core/errors.js";
import { looksLikeIdPrefix, resolveIdPrefix } from "../core/id-prefix.js";
import { DOCUMENT_CHARS, readDocumentLines } from "../cite/read-document.js";
import { forgetRoot, forgetRootsUnder } from "../ingest/roots.js";
import { hasUrlScheme } from "../net/url-shape.js";
import type { StoredDocument } from "../store/store.js";
import type { CollectionCore } from "./core.js";
import { readers, recordedBaseDirFor } from "./sources.js";
import { DOCUMENT_PAGE, type DocumentPage, type DocumentView, type LockWaitOptions, type RemoveSummary } from "./types.js";

/** Delete one document (its chunks, postings and snapshot). Returns false when it did not exist. */
export async function deleteDocument(core: CollectionCore, documentId: string, lock: LockWaitOptions): Promise<boolean> {
  return core.writing("delete", lock, async () => {
    const doc = await core.store.getDocument(await resolveDocumentId(core, documentId));
    if (!doc) return false;
    await removeDocument(core, doc);
    return true;
  });
}

async function removeDocument(core: CollectionCore, doc: StoredDocument): Promise<void> {
  await core.store.deleteDocument(doc.document_id);
  if (doc.source_class === "snapshot") await core.snapshots.remove(doc.document_id);
}

/**
 * Remove documents by reference, under the writer lock: an absolute path or
 * URL names a document's source; a folder removes every document under it; a
 * (short) document id names one document. A removed root (or one under a
 * removed folder) is forgotten, so a later update does not bring it back.
 */
export async function removeDocuments(core: CollectionCore, refs: readonly string[], lock: LockWaitOptions): Promise<RemoveSummary> {
  return core.writing("remove", lock, async () => {
    const out: RemoveSummary = { removed: [], not_found: [], roots_forgotten: [] };
    for (const ref of refs) {
      const docs = await documentsNamedBy(core, ref);
      const forgotten = hasUrlScheme(ref)
        ? (await forgetRoot(core.store, ref))
          ? [ref]
          : []
        : isAbsolutePath(ref)
          ? await forgetRootsUnder(core.store, ref)
          : [];
      out.roots_forgotten.push(...forgotten);
      if (docs.length === 0 && forgotten.length === 0) out.not_found.push(ref);
      for (const doc of docs) {
        await removeDocument(core, doc);
        out.removed.push({ document_id: doc.document_id, source: doc.source });
      }
    }
    return out;
  });
}

/** The documents a removal reference names (see removeDocuments), read a page at a time. */
async function documentsNamedBy(core: CollectionCore, ref: string): Promise<StoredDocument[]> {
  const exact = await core.store.getDocumentBySource(ref);
  if (exact) return [exact];
  if (isAbsolutePath(ref)) {
    const prefix = ref.endsWith(sep) ? ref : ref + sep;
    const docs: StoredDocument[] = [];
    for (let after: string | undefined; ; ) {
      const page = await core.store.listDocuments({ prefix, after, limit: DOCUMENT_PAGE.max });
      docs.push(...page);
      if (page.length < DOCUMENT_PAGE.max) return docs;
      after = page[page.length - 1]!.source;
    }
  }
  const id = await resolveDocumentId(core, ref);
  const byId = await core.store.getDocument(id);
  return byId ? [byId] : [];
}

/**
 * The document a reference names: its source (an absolute path or a URL as
 * stored) or its id, or a unique prefix of its id.
 *
 * @throws GroundkitError DOCUMENT_NOT_FOUND, AMBIGUOUS_ID
 */
export async function findDocument(core: CollectionCore, ref: string): Promise<StoredDocument> {
  const doc = (await core.store.getDocumentBySource(ref)) ?? (await core.store.getDocument(await resolveDocumentId(core, ref)));
  if (!doc) throw new GroundkitError("DOCUMENT_NOT_FOUND", `No document ${ref} in collection '${core.name}'.`);
  return doc;
}

/**
 * A line range of a document's indexed text with a citation for exactly that
 * range, bounded to `maxChars` code points (default 20,000; at most 200,000).
 */
export async function getDocument(
  core: CollectionCore,
  ref: string,
  opts: { startLine?: number | undefined; endLine?: number | undefined; maxChars?: number | undefined; baseDir?: string | undefined } = {},
): Promise<DocumentView> {
  const doc = await findDocument(core, ref);
  const maxChars = opts.maxChars ?? DOCUMENT_CHARS.default;
  if (!Number.isInteger(maxChars) || maxChars < 1 || maxChars > DOCUMENT_CHARS.max) {
    throw new GroundkitError("INVALID_ARGUMENT", `max_chars must be an integer from 1 to ${DOCUMENT_CHARS.max}; got ${maxChars}.`);
  }
  for (const [name, v] of [["start line", opts.startLine], ["end line", opts.endLine]] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 1)) {
      throw new GroundkitError("INVALID_ARGUMENT", `The ${name} must be a positive integer; got ${v}.`);
    }
  }
  const lines = await readDocumentLines(
    doc,
    { startLine: opts.startLine, endLine: opts.endLine, maxChars },
    {
      ...readers(core),
      indexed: doc,
      baseDir: opts.baseDir ? resolve(opts.baseDir) : (doc.base_dir ?? (await recordedBaseDirFor(core, doc.source))),
    },
    (offset) => core.store.chunkIdAt(doc.document_id, offset),
  );
  return { document_id: doc.document_id, source: doc.source, source_class: doc.source_class, ...lines };
}

/** Documents whose source starts with `prefix`, in source order, a page at a time (`after`: the previous page's `next_after`). */
export async function listDocuments(core: CollectionCore, opts: { prefix?: string | undefined; after?: string | undefined; limit?: number | undefined } = {}): Promise<DocumentPage> {
  const limit = opts.limit ?? DOCUMENT_PAGE.default;
  if (!Number.isInteger(limit) || limit < 1 || limit > DOCUMENT_PAGE.max) {
    throw new GroundkitError("INVALID_ARGUMENT", `The page size must be an integer from 1 to ${DOCUMENT_PAGE.max}; got ${limit}.`);
  }
  // One more than asked says whether another page follows.
  const rows = await core.store.listDocuments({ prefix: opts.prefix, after: opts.after, limit: limit + 1 });
  const page = rows.slice(0, limit);
  return {
    documents: page.map((d) => ({
      document_id: d.document_id,
      source: d.source,
      source_class: d.source_class,
      extractor: d.extractor,
      chunks: d.chunks,
      ingested_at: d.ingested_at,
      title: typeof d.metadata.title === "string" ? d.metadata.title : null,
    })),
    next_after: rows.length > limit ? page[page.length - 1]!.source : null,
  };
}

/** A full document id for an id or a unique prefix of one (unchanged when nothing matches). */
async function resolveDocumentId(core: CollectionCore, ref: string): Promise<string> {
  if (!looksLikeIdPrefix(ref) || (await core.store.getDocument(ref))) return ref;
  return (await resolveIdPrefix("document", ref, (p, n) => core.store.documentIdsWithPrefix(p, n))) ?? ref;
}

function isAbsolutePath(ref: string): boolean {
  return !hasUrlScheme(ref) && isAbsolute(ref);
}
