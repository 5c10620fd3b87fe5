/**
 * Obtain a `snapshot` source's text from the stored copy, never the network.
 */
import type { Citation } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { documentIdFor } from "../core/ids.js";
import type { SnapshotStore } from "../store/snapshots.js";
import { unresolvable } from "./resolution-error.js";

export async function readSnapshotSource(citation: Citation, snapshots: SnapshotStore): Promise<string> {
  if (documentIdFor(citation.source) !== citation.document_id) {
    throw unresolvable("the citation's document id does not belong to its source URL.");
  }
  let text: string | undefined;
  try {
    text = await snapshots.read(citation.document_id);
  } catch (err) {
    if (err instanceof GroundkitError) throw unresolvable(`the snapshot cannot be read: ${err.message}`);
    throw err;
  }
  if (text === undefined) {
    throw unresolvable("no snapshot is stored for this document (it was deleted or never written); the URL is never re-fetched.");
  }
  return text;
}
