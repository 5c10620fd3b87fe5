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
 *
 * A rename with edits (ADR 0037): a new file that shares most of its chunk
 * texts with an indexed document is set aside too, and paired with that
 * document if it is gone and the pairing is unique both ways; the document
 * then moves and is replaced by the new content, as an edit in place is.
 */
import { basename, extname, relative, sep } from "node:path";
import { formerSources, MAX_FORMER_SOURCES, MOVED_FROM_FIELD } from "../core/ids.js";
import type { NewChunk, Store, StoredDocument } from "../store/store.js";
import { ID_KEY_FIELD, idKeyOf } from "./document-identity.js";
import { compareCodeUnits } from "../core/text.js";

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

/** Ids of the documents under any of `folders` the run did not see, snapshots left out (a URL is its identity). */
export async function unseenUnder(store: Store, folders: readonly string[]): Promise<Set<string>> {
  const out = new Set<string>();
  for (const folder of folders) {
    for (let after = 0; ; ) {
      const page = await store.unseenDocumentsUnder(folder + sep, after, PAGE);
      if (page.length === 0) break;
      after = page[page.length - 1]!.rowid;
      for (const ref of page) if (ref.source_class !== "snapshot") out.add(ref.document_id);
    }
  }
  return out;
}

/**
 * Documents under any of `folders` the run did not see whose fingerprint is
 * among `fingerprints`, each once, in source order.
 */
export async function goneDocumentsWith(store: Store, folders: readonly string[], fingerprints: ReadonlySet<string>): Promise<GoneDocument[]> {
  const out: GoneDocument[] = [];
  for (const id of await unseenUnder(store, folders)) {
    const doc = await store.getDocument(id);
    if (doc && fingerprints.has(doc.fingerprint)) out.push(goneDocument(doc));
  }
  return out.sort((a, b) => compareCodeUnits(a.source, b.source));
}

/** What a move needs of a stored document. */
export function goneDocument(doc: StoredDocument): GoneDocument {
  return { document_id: doc.document_id, source: doc.source, fingerprint: doc.fingerprint, metadata: doc.metadata };
}

/**
 * Pair gone documents with new files of the same fingerprint. For each gone
 * document in source order: the first new file (in path order) with the same
 * file name, else the first one left. The same inputs always give the same
 * pairs; a new file left over is a copy, a gone document left over a deletion.
 */
export function pairMoves(candidates: readonly MoveCandidate[], gone: readonly GoneDocument[]): { moves: Move[]; unpaired: MoveCandidate[] } {
  const open = new Map<string, MoveCandidate[]>();
  for (const c of [...candidates].sort((a, b) => compareCodeUnits(a.path, b.path))) {
    const list = open.get(c.fingerprint) ?? [];
    list.push(c);
    open.set(c.fingerprint, list);
  }
  const moves: Move[] = [];
  for (const from of [...gone].sort((a, b) => compareCodeUnits(a.source, b.source))) {
    const list = open.get(from.fingerprint);
    if (!list || list.length === 0) continue;
    const sameName = list.findIndex((c) => basename(c.path) === basename(from.source));
    const [to] = list.splice(sameName >= 0 ? sameName : 0, 1);
    moves.push({ from, to: to! });
  }
  const unpaired = [...open.values()].flat().sort((a, b) => compareCodeUnits(a.path, b.path));
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

/**
 * A new file whose content mostly is an indexed document's (a rename with
 * edits, or a copy with edits): more than half of its distinct chunk texts are
 * that document's, and more than half of that document's are its. `similar`
 * lists those documents; which of them is gone is known after the walk.
 */
export interface EditCandidate<T> extends MoveCandidate {
  similar: ReadonlyArray<{ document_id: string }>;
  /** What the caller needs to write it later (its loaded content). */
  held: T;
}

/** Documents asked for per new file: more than two sharing most of its content already make a pairing impossible. */
const SIMILAR_ASKED = 3;

/**
 * The stored documents a new file's chunks mostly are, that this run could
 * find gone: more than half of the distinct chunk texts of each are the
 * other's; under one of the run's inputs (`within`); indexed before the run
 * began (`before`: a document written by this run is not gone). Snapshots
 * never move.
 */
export async function similarDocuments(
  store: Store,
  chunks: ReadonlyArray<Pick<NewChunk, "text_hash">>,
  within: readonly string[],
  before: string,
): Promise<Array<{ document_id: string }>> {
  const hashes = [...new Set(chunks.map((c) => c.text_hash))];
  if (hashes.length === 0) return [];
  const found = await store.documentsSharingChunks(hashes, Math.floor(hashes.length / 2) + 1, SIMILAR_ASKED);
  return found.filter(
    (d) =>
      d.source_class !== "snapshot" &&
      2 * d.shared > d.distinct_chunks &&
      d.ingested_at < before &&
      within.some((input) => d.source.startsWith(input + sep)),
  );
}

/**
 * Pair gone documents with the new files that share most of their content,
 * only where the pairing is unique both ways: the gone document is similar to
 * that one new file only, and the new file to that one gone document only
 * (two files merged into a new one, or one split in two alike, pair nothing).
 */
export function pairEdits<T>(candidates: ReadonlyArray<EditCandidate<T>>, gone: ReadonlySet<string>): { pairs: Array<{ from: string; to: EditCandidate<T> }>; unpaired: Array<EditCandidate<T>> } {
  const goneSimilar = candidates.map((c) => [...new Set(c.similar.map((d) => d.document_id))].filter((id) => gone.has(id)));
  const claims = new Map<string, number>();
  for (const ids of goneSimilar) for (const id of ids) claims.set(id, (claims.get(id) ?? 0) + 1);
  const pairs: Array<{ from: string; to: EditCandidate<T> }> = [];
  const unpaired: Array<EditCandidate<T>> = [];
  candidates.forEach((c, i) => {
    const ids = goneSimilar[i]!;
    if (ids.length === 1 && claims.get(ids[0]!) === 1) pairs.push({ from: ids[0]!, to: c });
    else unpaired.push(c);
  });
  return { pairs: pairs.sort((a, b) => compareCodeUnits(a.to.path, b.to.path)), unpaired: unpaired.sort((a, b) => compareCodeUnits(a.path, b.path)) };
}

