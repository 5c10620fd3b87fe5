/**
 * Verification reads only what the collection indexed. A citation is a claim a
 * caller hands us; unless its document id names a document of this collection
 * with that same source, class and extractor, nothing is read, and the answer
 * says so without a word about the file (whether it exists, its length, its
 * content), so a hand-made citation cannot turn verify into a file oracle.
 */
import type { Citation } from "../core/contracts.js";
import type { StoredDocument } from "../store/store.js";
import { unresolvable } from "./resolution-error.js";

/** What the collection recorded for a document: the only source verification may read for it. */
export type IndexedSource = Pick<StoredDocument, "source" | "source_class" | "extractor"> & {
  /** The document's metadata, where the sources it had before it moved are recorded (core/ids.ts formerSources). */
  metadata?: Record<string, unknown> | undefined;
};

/** Throw `unresolvable` unless `indexed` (the collection's row for the citation's document id) vouches for the citation's source. */
export function assertIndexedSource(citation: Citation, indexed: IndexedSource | undefined, collection: string): void {
  const doc = `document '${citation.document_id}'`;
  if (!indexed) {
    throw unresolvable(`${doc} is not in collection '${collection}'; only sources the collection indexed are verified.`, { gone: true });
  }
  if (indexed.source !== citation.source) {
    throw unresolvable(`the citation's source does not match the indexed ${doc}; only sources the collection indexed are verified.`);
  }
  if (indexed.source_class !== citation.source_class) {
    throw unresolvable(
      `the citation says source class '${citation.source_class}', but ${doc} was indexed as '${indexed.source_class}'.`,
    );
  }
  if (indexed.extractor !== citation.extractor) {
    throw unresolvable(
      `the citation names extractor ${citation.extractor ?? "(none)"}, but ${doc} was extracted with ` +
        `${indexed.extractor ?? "(none)"}; re-deriving the offsets needs the extractor recorded at ingest.`,
    );
  }
}
