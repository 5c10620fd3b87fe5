/**
 * Which id a document written at a source gets. Ids used to be recomputed from
 * the source on every write; a document that moved keeps the id derived from
 * its first source, so the id is looked up, never recomputed: a source that
 * has a document keeps that document's id (and the key its chunk ids derive
 * from), and a new source gets the id derived from it unless a moved document
 * already holds that id, in which case a numbered key is derived instead.
 */
import { documentIdFor, formerSources, MOVED_FROM_FIELD } from "../core/ids.js";
import type { Store, StoredDocument } from "../store/store.js";

/** A document's id and the key its id and chunk ids were derived from. */
export interface DocumentIdentity {
  document_id: string;
  /** Equal to the source unless the document moved (or its path's id was taken by one that did). */
  idKey: string;
  /** The sources it had before it moved (kept when it is written again, so citations of them are still followed). */
  formerSources?: string[] | undefined;
}

/**
 * The metadata field holding a document's id key when it is not its source.
 * Kept in the document's metadata JSON, so no schema change (like rel_path and ext).
 */
export const ID_KEY_FIELD = "id_key";

/** The id key recorded for a stored document (its source when none is recorded). */
export function idKeyOf(doc: Pick<StoredDocument, "source" | "metadata">): string {
  const key = doc.metadata[ID_KEY_FIELD];
  return typeof key === "string" ? key : doc.source;
}

/** The identity a document written at `source` gets (see the file comment). */
export async function identityFor(store: Store, source: string): Promise<DocumentIdentity> {
  const existing = await store.getDocumentBySource(source);
  if (existing) return identityOf(existing);
  for (let n = 0; ; n++) {
    // Sources never hold a NUL, so a numbered key cannot be another source.
    const idKey = n === 0 ? source : `${source}\0${n}`;
    const document_id = documentIdFor(idKey);
    if (!(await store.getDocument(document_id))) return { document_id, idKey };
  }
}

/** The identity a stored document keeps when it is written again. */
export function identityOf(doc: Pick<StoredDocument, "document_id" | "source" | "metadata">): DocumentIdentity {
  return { document_id: doc.document_id, idKey: idKeyOf(doc), formerSources: formerSources(doc.metadata) };
}

/** The metadata fields to add to a document's metadata for its identity: its id key (unless its source), its former sources. */
export function identityMetadata(identity: DocumentIdentity, source: string): Record<string, unknown> {
  return {
    ...(identity.idKey === source ? {} : { [ID_KEY_FIELD]: identity.idKey }),
    ...(identity.formerSources?.length ? { [MOVED_FROM_FIELD]: identity.formerSources } : {}),
  };
}
