/**
 * The fuzz oracle: what a citation's verdict MUST be, computed from what the
 * test did to the world (never by asking the resolver), and the judge that
 * compares it with what the product answered.
 *
 * A document is either readable, with the content verification must see
 * (derived from the bytes on disk by an independent model of each loader), or
 * unreadable for a named reason. Then:
 * - unreadable → `unresolvable`, with a detail that names the reason;
 * - not indexed (the collection no longer holds the citation's document) →
 *   `unresolvable`, whatever the file says: only indexed sources are read;
 * - readable → `verified` iff the content's code points [start, end) are the
 *   cited text on the cited lines, else `drifted` (the text unchanged on other
 *   lines gives no location: it did not move); a drifted verdict whose original text is known
 *   (the index still holds the chunk) must locate the text where it now sits
 *   by ADR 0037's rule: its only occurrence when the document held it once when
 *   cited; else, of the occurrences whose surroundings (up to 4096 code points
 *   each side) match the cited copy's in the document as cited better than any
 *   other copy's there, the one that matches strictly best, by at least 24
 *   code units (or all there were); else, or when the text no longer occurs,
 *   no location is given. Only the
 *   cited document's occurrences are modelled: the fuzz corpora's documents
 *   are generated apart and do not share cited passages.
 */
import { createHash } from "node:crypto";
import type { Citation, Verification } from "../src/core/contracts.js";
import { cpLength, cpOccurrences, cpSlice, lineRangeOf } from "./codepoints.js";
import { normalizeTextModel } from "./corpus-gen.js";

/** Hex SHA-256 of a string's UTF-8 bytes (node:crypto directly, not the product's helper). */
export function sha256Hex(s: string | Uint8Array): string {
  return createHash("sha256").update(s).digest("hex");
}

/** Why a source cannot be checked. */
export type UnreadableReason =
  | "not-indexed"
  | "missing"
  | "not-a-file"
  | "escapes"
  | "symlink-loop"
  | "permission"
  | "not-utf8"
  | "binary"
  | "extraction-failed"
  | "class-mismatch"
  | "extractor-mismatch"
  | "snapshot-missing"
  | "snapshot-symlink"
  | "snapshot-unreadable"
  | "snapshot-not-utf8";

/** What verification can obtain for a document after the mutation. */
export type Availability = { readable: true; content: string } | { readable: false; reason: UnreadableReason };

/** A citation taken from a real search, with the text the search returned for it. */
export interface CitedSpan {
  citation: Citation;
  text: string;
  /** Index of the document in the world. */
  doc: number;
  /** The first citation the mutation was aimed at. */
  primary: boolean;
}

/** The oracle's verdict for one citation. */
export interface Expectation {
  verdict: Verification["verdict"];
  reason?: UnreadableReason | undefined;
  /** Where a drifted citation's text must be reported, `null` when no location may be given, undefined when unchecked. */
  relocated?: { start_offset: number; end_offset: number } | null | undefined;
  /** Content the relocation lines are computed in. */
  content?: string | undefined;
  /**
   * A verified expectation may also be answered `drifted` (with no location): an HTML citation whose
   * file's lines moved while its extracted text did not. The product then compares the HTML file's lines
   * (ADR 0017), which this oracle does not model; it never turns an expected `drifted` into `verified`.
   */
  orDrifted?: boolean;
  /**
   * With `relocated: null` because the caller did not give the cited text: the product may still know it (the index
   * or the kept history hold it, ADR 0030/0031) and then must report exactly this place, the nearest occurrence.
   */
  mayRelocate?: { start_offset: number; end_offset: number } | undefined;
}

/** Categories of failure. The first five are the ones the issue names. */
export const FAILURE_KINDS = [
  "false-verified",
  "drifted-unreadable",
  "missing-detail",
  "verdict-mismatch",
  "detail-mismatch",
  "relocation-mismatch",
  "exception",
  "hang",
  "invariant",
  "harness",
] as const;
export type FailureKind = (typeof FAILURE_KINDS)[number];

/** One failure: its category and what exactly went wrong. */
export interface Failure {
  kind: FailureKind;
  message: string;
}

/**
 * How a text-class file's bytes read (the loader's documented rules): a UTF-16
 * byte-order mark is a wrong encoding, a NUL in the first 8 KiB is binary,
 * otherwise strict UTF-8, BOM stripped, CRLF/CR → LF. (The product also names
 * BOM-less, mostly-ASCII UTF-16 as such; the mutations never generate it.)
 */
export function textAvailability(bytes: Uint8Array): Availability {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { readable: false, reason: "not-utf8" };
  }
  if (bytes.subarray(0, 8192).includes(0)) return { readable: false, reason: "binary" };
  let decoded: string;
  try {
    decoded = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { readable: false, reason: "not-utf8" };
  }
  return { readable: true, content: normalizeTextModel(decoded) };
}

/**
 * How a snapshot file reads: it is the indexed content itself, stored as UTF-8,
 * and is compared as stored (no normalization); bytes that are not UTF-8 cannot
 * be read as that content (the snapshot spec: "not UTF-8 → unresolvable").
 */
export function snapshotAvailability(bytes: Uint8Array): Availability {
  try {
    return { readable: true, content: new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { readable: false, reason: "snapshot-not-utf8" };
  }
}

/** Whether bytes are valid UTF-8. */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * The expected verdict for `cited` given its document's availability. `asCited`
 * is the document's content when the citation was taken (what the index or its
 * kept history says it was).
 */
export function expectVerdict(cited: CitedSpan, avail: Availability, originalKnown: boolean, asCited: string): Expectation {
  if (!avail.readable) return { verdict: "unresolvable", reason: avail.reason };
  const { start_offset: start, end_offset: end } = cited.citation;
  const content = avail.content;
  if (end <= cpLength(content) && cpSlice(content, start, end) === cited.text) {
    const lines = lineRangeOf(content, start, end);
    const sameLines = lines.startLine === cited.citation.start_line && lines.endLine === cited.citation.end_line;
    return sameLines ? { verdict: "verified" } : { verdict: "drifted", relocated: null, content };
  }
  const at = cpOccurrences(content, cited.text);
  const chosen = choosePlaceModel(at, content, cited, asCited);
  const place = chosen === undefined ? null : { start_offset: chosen, end_offset: chosen + (end - start) };
  if (!originalKnown) return { verdict: "drifted", relocated: null, content, ...(place ? { mayRelocate: place } : {}) };
  return { verdict: "drifted", relocated: place, content };
}

/** Surroundings compared each side, and the least that must match (ADR 0037). */
const CONTEXT = 4096;
const MIN_CONTEXT = 24;

/** Which occurrence `at` (code points in `content`) the citation became, if one is told (see the file comment). */
function choosePlaceModel(at: readonly number[], content: string, cited: CitedSpan, asCited: string): number | undefined {
  if (at.length === 0) return undefined;
  const { start_offset: start, end_offset: end } = cited.citation;
  const copies = cpOccurrences(asCited, cited.text).slice(0, 16);
  if (at.length === 1 && copies.length <= 1) return at[0];
  const len = end - start;
  const around = (text: string, o: number): [string, string] => [cpSlice(text, Math.max(0, o - CONTEXT), o), cpSlice(text, o + len, o + len + CONTEXT)];
  const shared = ([b1, a1]: [string, string], [b2, a2]: [string, string]): number => {
    let k = 0;
    while (k < b1.length && k < b2.length && b1[b1.length - 1 - k] === b2[b2.length - 1 - k]) k++;
    let j = 0;
    while (j < a1.length && j < a2.length && a1[j] === a2[j]) j++;
    return k + j;
  };
  const mine = around(asCited, start);
  const others = copies.filter((c) => c !== start).map((c) => around(asCited, c));
  // A place is the cited copy only if it looks more like it than like any other copy as cited.
  const candidates = at
    .map((o) => ({ o, here: around(content, o) }))
    .map(({ o, here }) => ({ o, score: shared(mine, here), other: Math.max(-1, ...others.map((x) => shared(x, here))) }))
    .filter((c) => c.other < c.score);
  if (candidates.length === 0) return undefined;
  const best = Math.max(...candidates.map((c) => c.score));
  const winners = candidates.filter((c) => c.score === best);
  if (winners.length !== 1 || best === 0 || best < Math.min(MIN_CONTEXT, mine[0].length + mine[1].length)) return undefined;
  return winners[0]!.o;
}

/** Whether two files break lines at different places (an HTML citation's file lines may then have moved). */
export function linesMoved(before: Uint8Array, after: Uint8Array): boolean {
  const breaks = (b: Uint8Array): number[] => {
    const out: number[] = [];
    for (let i = 0; i < b.length; i++) if (b[i] === 0x0a || (b[i] === 0x0d && b[i + 1] !== 0x0a)) out.push(i);
    return out;
  };
  const a = breaks(before);
  const z = breaks(after);
  return a.length !== z.length || a.some((p, i) => p !== z[i]);
}

/** What a detail must say for each unreadable reason (loose: the reason, not the wording). */
const REASON_DETAIL: Record<UnreadableReason, RegExp> = {
  "not-indexed": /is not in collection/i,
  missing: /no longer exists|does not exist/i,
  "not-a-file": /not a regular file|cannot be read/i,
  escapes: /outside the base directory/i,
  "symlink-loop": /cannot be read|symbolic link|loop/i,
  permission: /cannot be read|permission|EACCES/i,
  "not-utf8": /UTF-8|cannot be read as text/i,
  binary: /binary/i,
  "extraction-failed": /re-extraction/i,
  "class-mismatch": /must be a snapshot citation|was indexed as/i,
  "extractor-mismatch": /names extractor .* but .* was extracted with/i,
  "snapshot-missing": /no snapshot/i,
  "snapshot-symlink": /symlink/i,
  "snapshot-unreadable": /snapshot cannot be read/i,
  "snapshot-not-utf8": /snapshot.*(UTF-8|cannot be read)/i,
};

/** Compare the product's answer with the expectation; an empty list means it was right. */
export function judge(exp: Expectation, actual: Verification, cited: CitedSpan): Failure[] {
  const failures: Failure[] = [];
  const where = `${cited.citation.source_class} ${cited.citation.start_offset}-${cited.citation.end_offset}`;
  if (typeof actual.detail !== "string" || actual.detail.trim() === "") {
    failures.push({ kind: "missing-detail", message: `${where}: verdict ${actual.verdict} came without a detail` });
  }
  const tolerated = exp.orDrifted === true && actual.verdict === "drifted" && !actual.relocated;
  if (actual.verdict !== exp.verdict && !tolerated) {
    const kind: FailureKind =
      actual.verdict === "verified" ? "false-verified" : actual.verdict === "drifted" && exp.verdict === "unresolvable" ? "drifted-unreadable" : "verdict-mismatch";
    failures.push({
      kind,
      message: `${where}: expected ${exp.verdict}${exp.reason ? ` (${exp.reason})` : ""}, got ${actual.verdict}: ${actual.detail}`,
    });
    return failures;
  }
  const detail = actual.detail ?? "";
  if (tolerated) {
    if (!/unchanged at code points .* but now on file lines/i.test(detail)) {
      failures.push({ kind: "detail-mismatch", message: `${where}: drifted for moved HTML lines, but the detail does not say so: ${detail}` });
    }
    return failures;
  }
  if (exp.verdict === "verified" && !/matches/i.test(detail)) {
    failures.push({ kind: "detail-mismatch", message: `${where}: verified, but the detail does not say it matches: ${detail}` });
  }
  if (exp.verdict === "drifted" && !/differs|code points long|unchanged at code points/i.test(detail)) {
    failures.push({ kind: "detail-mismatch", message: `${where}: drifted, but the detail does not say how: ${detail}` });
  }
  if (exp.verdict === "unresolvable" && exp.reason) {
    if (!REASON_DETAIL[exp.reason].test(detail)) {
      failures.push({ kind: "detail-mismatch", message: `${where}: unresolvable (${exp.reason}) but the detail says: ${detail}` });
    }
  }
  if (exp.verdict === "drifted" && exp.relocated !== undefined) failures.push(...judgeRelocation(exp, actual, where));
  return failures;
}

function judgeRelocation(exp: Expectation, actual: Verification, where: string): Failure[] {
  const want = exp.relocated;
  const got = actual.relocated;
  if (want === null || want === undefined) {
    const may = exp.mayRelocate;
    if (got && !(may && got.start_offset === may.start_offset && got.end_offset === may.end_offset)) {
      return [{ kind: "relocation-mismatch", message: `${where}: no location expected${may ? ` but ${may.start_offset}-${may.end_offset}` : ""}, got ${got.start_offset}-${got.end_offset}` }];
    }
    return [];
  }
  if (!got || got.start_offset !== want.start_offset || got.end_offset !== want.end_offset) {
    return [
      {
        kind: "relocation-mismatch",
        message: `${where}: the text now sits at ${want.start_offset}-${want.end_offset}, the verification says ${got ? `${got.start_offset}-${got.end_offset}` : "nothing"} (detail: ${actual.detail})`,
      },
    ];
  }
  const lines = lineRangeOf(exp.content ?? "", want.start_offset, want.end_offset);
  const hint = `${want.start_offset}-${want.end_offset} (lines ${lines.startLine}-${lines.endLine})`;
  if (!actual.detail.includes(hint)) {
    return [{ kind: "relocation-mismatch", message: `${where}: the detail should point at ${hint}: ${actual.detail}` }];
  }
  return [];
}
