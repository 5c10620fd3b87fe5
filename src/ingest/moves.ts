/**
 * Moves at ingest: within one run (its folder walks), a file that is gone from one path
 * while a file with the same fingerprint (same bytes, loader and chunking)
 * appeared at another is the same document moved. It keeps its id, its chunks
 * (ids, offsets, postings, vectors) and only its source changes, so citations
 * taken before the move still name a document of the collection.
 *
 * A new file whose fingerprint the collection already holds is set aside
 * during the walk (a copy and a move look the same until the walk knows which
 * sources it did not see); after the walk, the gone documents are paired with
 * them, deterministically: same file name first, then path order. What is left
 * over is ingested as a new document (a copy) or pruned (a deletion).
 */
import { basename, extname, relative, sep } from "node:path";
import { formerSources, MAX_FORMER_SOURCES, MOVED_FROM_FIELD } from "../core/ids.js";
import type { Store } from "../store/store.js";
import { ID_KEY_FIELD, idKeyOf } from "./document-identity.js";

/** A new file whose content the collection already holds under another source. */
export interface MoveCandidate {
  path: string;
  /** What discovery checked for containment (read if it is ingested after all). */
  realPath: string;
  baseDir: string;
  fingerprint: string;
}

/** A stored document whose source this walk did not see. */
export interface GoneDocument {
  document_id: string;
  source: string;
  fingerprint: string;
  metadata: Record<string, unknown>;
}

/** A gone document and the new file it became. */
export interface Move {
  from: GoneDocument;
  to: MoveCandidate;
}

/** Page size of the walk over unseen documents. */
const PAGE = 1000;

/**
 * Documents under any of `folders` the run did not see whose fingerprint is
 * among `fingerprints`, each once, in source order. Snapshots never move (a
 * URL is its identity).
 */
export async function goneDocumentsWith(store: Store, folders: readonly string[], fingerprints: ReadonlySet<string>): Promise<GoneDocument[]> {
  const out = new Map<string, GoneDocument>();
  for (const folder of folders) {
    for (let after = 0; ; ) {
      const page = await store.unseenDocumentsUnder(folder + sep, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.rowid;
      for (const ref of page) {
        if (ref.source_class === "snapshot" || out.has(ref.document_id)) continue;
        const doc = await store.getDocument(ref.document_id);
        if (doc && fingerprints.has(doc.fingerprint)) {
          out.set(doc.document_id, { document_id: doc.document_id, source: doc.source, fingerprint: doc.fingerprint, metadata: doc.metadata });
        }
      }
    }
  }
  return [...out.values()].sort((a, b) => compare(a.source, b.source));
}

/**
 * Pair gone documents with new files of the same fingerprint. For each gone
 * document in source order: the first new file (in path order) with the same
 * file name, else the first one left. The same inputs always give the same
 * pairs; a new file left over is a copy, a gone document left over a deletion.
 */
export function pairMoves(candidates: readonly MoveCandidate[], gone: readonly GoneDocument[]): { moves: Move[]; unpaired: MoveCandidate[] } {
  const open = new Map<string, MoveCandidate[]>();
  for (const c of [...candidates].sort((a, b) => compare(a.path, b.path))) {
    const list = open.get(c.fingerprint) ?? [];
    list.push(c);
    open.set(c.fingerprint, list);
  }
  const moves: Move[] = [];
  for (const from of [...gone].sort((a, b) => compare(a.source, b.source))) {
    const list = open.get(from.fingerprint);
    if (!list || list.length === 0) continue;
    const sameName = list.findIndex((c) => basename(c.path) === basename(from.source));
    const [to] = list.splice(sameName >= 0 ? sameName : 0, 1);
    moves.push({ from, to: to! });
  }
  const unpaired = [...open.values()].flat().sort((a, b) => compare(a.path, b.path));
  return { moves, unpaired };
}

/** The metadata a moved document carries at its new path: its path fields follow it, its id key stays. */
export function movedMetadata(move: Move): Record<string, unknown> {
  return {
    ...move.from.metadata,
    ext: extname(move.to.path).toLowerCase(),
    rel_path: relative(move.to.baseDir, move.to.path),
    [ID_KEY_FIELD]: idKeyOf(move.from),
    [MOVED_FROM_FIELD]: [...formerSources(move.from.metadata), move.from.source].slice(-MAX_FORMER_SOURCES),
  };
}

/** Code-unit order: the same pairs whatever order a store returned its rows in. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
