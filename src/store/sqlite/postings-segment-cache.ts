/**
 * Decoded segment data that both the writer (removals, merges) and the reader
 * (scoring) use: a segment's document table and its tombstone bitmap.
 * Entries are keyed by the segment's random uid (its document table never
 * changes) and a bitmap also by the segment's dead_uid (every tombstone
 * changes it), so an entry can never stand for another segment or an older
 * state of this one, after a rollback or another process's write included.
 */
import { GroundkitError } from "../../core/errors.js";
import { decodeDocTable, type DocTable } from "./postings-codec.js";
import { key, type SegmentRow, type Statements } from "./postings-format.js";

export class SegmentCache {
  private readonly docTables = new Map<number, DocTable>();
  private readonly deadBits = new Map<number, { deadUid: number; bits: Uint8Array }>();

  /** The segment's rowids and document lengths, by local document number. */
  docTable(s: Statements, seg: SegmentRow): DocTable {
    let t = this.docTables.get(seg.uid);
    if (!t) {
      const data = s.segmentDocs.get(seg.id) as Uint8Array | undefined;
      if (data === undefined) throw new GroundkitError("STORE_CORRUPT", `BM25 postings: segment ${seg.id} is missing.`);
      t = decodeDocTable(data, seg.ndocs);
      this.docTables.set(seg.uid, t);
    }
    return t;
  }

  /** 1 for each tombstoned local document; null when the segment has none. */
  deadBitmap(s: Statements, seg: SegmentRow): Uint8Array | null {
    if (seg.dead === 0) return null;
    const cached = this.deadBits.get(seg.uid);
    if (cached && cached.deadUid === seg.dead_uid) return cached.bits;
    const bits = new Uint8Array(seg.ndocs);
    const base = key(seg.id, 0);
    for (const id of s.deletedRange.all(base, key(seg.id + 1, 0)) as number[]) bits[id - base] = 1;
    this.deadBits.set(seg.uid, { deadUid: seg.dead_uid, bits });
    return bits;
  }

  /** Drop a segment that no longer exists. */
  forget(uid: number): void {
    this.docTables.delete(uid);
    this.deadBits.delete(uid);
  }

  /** Drop every segment but these. */
  retain(uids: ReadonlySet<number>): void {
    for (const uid of this.docTables.keys()) if (!uids.has(uid)) this.docTables.delete(uid);
    for (const uid of this.deadBits.keys()) if (!uids.has(uid)) this.deadBits.delete(uid);
  }
}
