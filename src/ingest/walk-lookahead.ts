/**
 * A folder walk's discovered files, a page ahead. Before a file is read, the
 * walk asks the store for the document at its source (is it unchanged? does
 * it replace one?) and for the id a new document there would get (is the id
 * derived from the source taken by a moved document?): two or three point
 * lookups per file, each a round trip on a server store, which cost more than
 * the whole write of the file (ADR 0035). And for a new file, whether a stored
 * document has its fingerprint (a move or copy candidate). Here they are asked
 * for a page of files at once: {@link Store.documentsAt}, then the new files
 * are hashed (`fingerprint`, which reads them) and
 * {@link Store.heldFingerprints}. The walk reads each file again when it
 * processes it, and uses the answer only if those bytes have the same
 * fingerprint.
 *
 * What a page's answer says stays true until its files are processed: the walk
 * holds the writer lock, a walk sees each source once, and moves and pruning
 * run after the walk.
 */
import { documentIdFor } from "../core/ids.js";
import type { DocumentState, Store, StoredDocument } from "../store/store.js";
import { identityOf, type DocumentIdentity } from "./document-identity.js";

/** What the store held for one file's source when its page was looked up. */
export interface KnownSource {
  /** The fingerprint and base dir of the document at the source, if any. */
  state: DocumentState | undefined;
  /** The identity a document written at the source gets; undefined when it must be worked out (identityFor). */
  identity: DocumentIdentity | undefined;
  /** For a new source: the fingerprint of the file as it was read ahead, and whether a stored document has it. */
  fingerprint?: { value: string; held: boolean } | undefined;
}

/** Files looked up per call. */
export const LOOKAHEAD_PAGE = 128;

/** An iterator over `entries` that yields each with what the store knew of its source (files only). */
export class WalkLookahead<E extends { kind: string; path: string }> {
  private page: Array<{ entry: E; known: KnownSource | undefined }> = [];
  private done = false;

  constructor(
    private readonly entries: AsyncIterator<E>,
    private readonly store: Store,
    /** The fingerprint of a discovered file (undefined when it cannot be read now: its processing will say why). */
    private readonly fingerprint: (entry: E) => Promise<string | undefined>,
    private readonly pageSize = LOOKAHEAD_PAGE,
  ) {}

  async next(): Promise<IteratorResult<{ entry: E; known: KnownSource | undefined }, undefined>> {
    if (this.page.length === 0 && !this.done) await this.fill();
    const item = this.page.shift();
    return item ? { done: false, value: item } : { done: true, value: undefined };
  }

  /** Stop the walk underneath (what was read ahead is dropped). */
  async return(): Promise<void> {
    this.page = [];
    this.done = true;
    await this.entries.return?.(undefined);
  }

  private async fill(): Promise<void> {
    const entries: E[] = [];
    while (entries.length < this.pageSize) {
      const next = await this.entries.next();
      if (next.done) {
        this.done = true;
        break;
      }
      entries.push(next.value);
    }
    const sources = entries.filter((e) => e.kind === "file").map((e) => e.path);
    const derived = new Map(sources.map((s) => [s, documentIdFor(s)]));
    const docs = sources.length > 0 ? await this.store.documentsAt(sources, [...derived.values()]) : [];
    const bySource = new Map<string, StoredDocument>(docs.map((d) => [d.source, d]));
    const ids = new Set(docs.map((d) => d.document_id));
    const page = entries.map((entry) => ({ entry, known: entry.kind === "file" ? knownSource(entry.path, bySource, ids, derived) : undefined }));
    const fingerprints = new Map<E, string>();
    for (const { entry, known } of page) {
      if (known?.state !== undefined || entry.kind !== "file") continue;
      const f = await this.fingerprint(entry);
      if (f !== undefined) fingerprints.set(entry, f);
    }
    const held = new Set(fingerprints.size > 0 ? await this.store.heldFingerprints([...new Set(fingerprints.values())]) : []);
    for (const { entry, known } of page) {
      const f = fingerprints.get(entry);
      if (known && f !== undefined) known.fingerprint = { value: f, held: held.has(f) };
    }
    this.page = page;
  }
}

function knownSource(source: string, bySource: Map<string, StoredDocument>, ids: Set<string>, derived: Map<string, string>): KnownSource {
  const doc = bySource.get(source);
  if (doc) {
    // Its whole identity, former sources included (a document that moved keeps following its old citations).
    return { state: { fingerprint: doc.fingerprint, base_dir: doc.base_dir }, identity: identityOf(doc) };
  }
  const id = derived.get(source)!;
  // A moved document holds the id derived from this source: identityFor finds the numbered key.
  return { state: undefined, identity: ids.has(id) ? undefined : { document_id: id, idKey: source } };
}
