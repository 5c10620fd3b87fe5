/**
 * One mutation per kind. Each changes the world around a citation taken from a
 * real search (the "primary" citation of the case's target document) and
 * returns what it did in the terms the oracle needs: for every document it
 * touched, whether verification can still read it and, if so, the exact content
 * it will find there (computed from the bytes the mutation wrote, by the
 * oracle's own loader models — never by asking the resolver).
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  closeSync,
  constants,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join, relative } from "node:path";
import type { Citation } from "../src/core/contracts.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { cpLength, cpSlice, cps } from "./codepoints.js";
import { classOf, type DocKind, DOC_KINDS } from "./corpus-gen.js";
import {
  applyEdit,
  at,
  byteOffsetOf,
  LATIN_REPLACEMENTS,
  sameLengthReplacement,
  utf8,
  WIDE_REPLACEMENTS,
  type ContentEdit,
} from "./edits.js";
import type { PermissionSupport } from "./nobody.js";
import { isUtf8, sha256Hex, snapshotAvailability, textAvailability, type Availability, type CitedSpan, type Failure } from "./oracle.js";
import { reingest, servePage, writeDocBytes, type World, type WorldDoc } from "./world.js";

/** Every mutation kind, in report order. `control` changes nothing. */
export const MUTATION_KINDS = [
  "control",
  "insert_before",
  "insert_inside",
  "insert_after",
  "delete_before",
  "delete_inside",
  "delete_after",
  "same_length_edit",
  "truncate",
  "move_rename",
  "symlink_escape",
  "unreadable",
  "break_encoding",
  "extractor_identity",
  "snapshot_tamper",
  "snapshot_delete",
  "delete_reingest",
] as const;
export type MutationKind = (typeof MUTATION_KINDS)[number];

/** Random parameters of a mutation (fractions in [0, 1) and an insertion text), fixed by the case spec. */
export interface MutationParams {
  variant: number;
  pick: number;
  a: number;
  b: number;
  c: number;
  text: string;
}

/** What a mutation is given. */
export interface MutationContext {
  world: World;
  primary: CitedSpan;
  params: MutationParams;
  perm: PermissionSupport;
}

/** What a mutation did, for the oracle. */
export interface MutationOutcome {
  variant: string;
  /** Availability of each document it changed (by index in `world.docs`); others read as indexed. */
  avail: Map<number, Availability>;
  /** Strings the detail of each affected document's verdict must mention (e.g. both extractor identities). */
  mustMention: Map<number, string[]>;
  /** A change to the citations of the target document before they are verified. */
  editCitation?: ((c: Citation) => Record<string, unknown>) | undefined;
  /** Verify through the unprivileged worker (root run of `unreadable`). */
  verifyAsNobody?: boolean | undefined;
  /** Where the mutation put the primary citation's text (code-point start), when it moved it. */
  predicted?: number | undefined;
  /** The index was changed (a document deleted or re-ingested). */
  indexChanged?: boolean | undefined;
  /** Product failures the mutation itself observed (e.g. a re-ingest that did not index the new content). */
  failures: Failure[];
  /** Why the mutation could not run meaningfully here (the case is counted as skipped). */
  skipped?: string | undefined;
  /** Release a verification blocked on a FIFO (best effort). */
  unblock?: (() => void) | undefined;
}

/** A mutation: which documents it applies to, which citations it can aim at, what it does. */
export interface MutationDef {
  kinds: readonly DocKind[];
  /** Whether a citation [start, end) of a document of `length` code points can be the primary one. */
  accepts?: (start: number, end: number, length: number) => boolean;
  apply(ctx: MutationContext): Promise<MutationOutcome>;
}

const URL_KINDS = DOC_KINDS.filter((k) => classOf(k) === "snapshot");

function outcome(variant: string, rest: Partial<MutationOutcome> = {}): MutationOutcome {
  return { variant, avail: new Map(), mustMention: new Map(), failures: [], ...rest };
}

function target(ctx: MutationContext): WorldDoc {
  return ctx.world.docs[ctx.primary.doc]!;
}

function span(ctx: MutationContext): { s: number; e: number; L: number; content: string } {
  const doc = target(ctx);
  return { s: ctx.primary.citation.start_offset, e: ctx.primary.citation.end_offset, L: cpLength(doc.content), content: doc.content };
}

// ---------------------------------------------------------------------------
// Content edits (insert / delete / same-length / truncate).

type EditMaker = (s: number, e: number, L: number, content: string, p: MutationParams, kind: DocKind) => { edit: ContentEdit; predicted?: number; variant: string };

const makeInsertBefore: EditMaker = (s, _e, _L, _c, p) => {
  const pos = at(0, s, p.a);
  return { edit: { start: pos, end: pos, insert: p.text }, predicted: s + cpLength(p.text), variant: "insert" };
};
const makeInsertInside: EditMaker = (s, e, _L, _c, p) => {
  const pos = at(s + 1, e - 1, p.a);
  return { edit: { start: pos, end: pos, insert: p.text }, variant: "insert" };
};
const makeInsertAfter: EditMaker = (_s, e, L, _c, p) => {
  const pos = at(e, L, p.a);
  return { edit: { start: pos, end: pos, insert: p.text }, predicted: undefined, variant: "insert" };
};
const makeDeleteBefore: EditMaker = (s, _e, _L, _c, p) => {
  const x = at(0, s - 1, p.a);
  const y = Math.min(s, x + 1 + Math.floor(p.b * 40));
  return { edit: { start: x, end: y, insert: "" }, predicted: s - (y - x), variant: "delete" };
};
const makeDeleteInside: EditMaker = (s, e, _L, _c, p) => {
  const x = at(s, e - 1, p.a);
  const y = Math.min(e, x + 1 + Math.floor(p.b * 40));
  return { edit: { start: x, end: y, insert: "" }, variant: "delete" };
};
const makeDeleteAfter: EditMaker = (_s, e, L, _c, p) => {
  const x = at(e, L - 1, p.a);
  const y = Math.min(L, x + 1 + Math.floor(p.b * 40));
  return { edit: { start: x, end: y, insert: "" }, variant: "delete" };
};
const makeSameLength: EditMaker = (s, e, L, content, p, kind) => {
  let lo: number;
  let hi: number;
  let variant: string;
  if ((p.c < 0.7 && e > s) || (s === 0 && e === L)) {
    [lo, hi, variant] = [s, e, "inside"];
  } else if (s > 0 && (p.a < 0.5 || e === L)) {
    [lo, hi, variant] = [0, s, "before"];
  } else {
    [lo, hi, variant] = [e, L, "after"];
  }
  const x = at(lo, hi - 1, p.a);
  const k = Math.min(hi - x, 1 + Math.floor(p.b * 6));
  const original = cpSlice(content, x, x + k);
  const alphabet = kind === "pdf" ? LATIN_REPLACEMENTS : WIDE_REPLACEMENTS;
  return { edit: { start: x, end: x + k, insert: sameLengthReplacement(original, alphabet, p.b) }, variant, predicted: variant === "inside" ? undefined : s };
};

/** Apply a content edit to the target: its file, or (URL documents) its live page, optionally re-ingested. */
async function editTarget(ctx: MutationContext, make: EditMaker): Promise<MutationOutcome> {
  const doc = target(ctx);
  const { s, e, L, content } = span(ctx);
  const made = make(s, e, L, content, ctx.params, doc.spec.kind);
  const result = await applyEdit(doc.spec.model, doc.bytes, content, made.edit);
  if (classOf(doc.spec.kind) !== "snapshot") {
    writeDocBytes(doc, result.bytes);
    return outcome(made.variant, { avail: new Map([[ctx.primary.doc, result.avail]]), predicted: made.predicted });
  }
  return editLivePage(ctx, doc, result.bytes, result.avail, made.variant, made.predicted);
}

/**
 * A URL document's live page changes. Verification reads the snapshot, never
 * the page, so nothing changes for it, unless the page is re-ingested: then the
 * snapshot holds the new page's content (when it loads and is not empty).
 */
async function editLivePage(
  ctx: MutationContext,
  doc: WorldDoc,
  bytes: Uint8Array,
  pageAvail: Availability,
  variant: string,
  predicted: number | undefined,
): Promise<MutationOutcome> {
  servePage(ctx.world, doc, bytes);
  if (ctx.params.c < 0.5) return outcome(`${variant}, live page only`);
  const failures: Failure[] = [];
  const replaced = await reingestAndCheck(ctx.world, doc, pageAvail, failures);
  return outcome(`${variant}, page re-ingested`, {
    avail: replaced ? new Map([[ctx.primary.doc, { readable: true, content: replaced }]]) : new Map(),
    indexChanged: true,
    predicted: replaced ? predicted : undefined,
    failures,
  });
}

/**
 * Re-ingest and check the document now holds the content its source should
 * give (or still the old one when the source cannot be indexed). Returns the
 * new content when it was replaced.
 */
async function reingestAndCheck(world: World, doc: WorldDoc, sourceAvail: Availability, failures: Failure[]): Promise<string | undefined> {
  await reingest(world);
  const row = await world.store.getDocument(doc.documentId);
  const replaceable = sourceAvail.readable && sourceAvail.content.trim().length > 0;
  if (replaceable) {
    if (row?.content_hash !== sha256Hex(sourceAvail.content)) {
      failures.push({ kind: "invariant", message: `re-ingest did not index the new content of ${doc.spec.kind} ${doc.spec.name}` });
    }
    return sourceAvail.content;
  }
  if (row && row.content_hash !== sha256Hex(doc.content)) {
    failures.push({ kind: "invariant", message: `re-ingest of an unindexable ${doc.spec.kind} source changed its document` });
  }
  return undefined;
}

async function truncate(ctx: MutationContext): Promise<MutationOutcome> {
  const doc = target(ctx);
  const { L, content } = span(ctx);
  const p = ctx.params;
  const q = at(0, Math.max(0, L - 1), p.a);
  if (doc.spec.model.type === "text") {
    // Byte-level: sometimes through the middle of a multi-byte character.
    const raw = utf8(doc.bytes);
    let cut = byteOffsetOf(raw, q);
    const ch = cps(content)[q] ?? "";
    let variant = "bytes";
    if (p.c < 0.3 && Buffer.byteLength(ch) > 1) {
      cut += 1;
      variant = "bytes, inside a character";
    }
    const bytes = doc.bytes.slice(0, cut);
    if (classOf(doc.spec.kind) === "snapshot") return editLivePage(ctx, doc, bytes, textAvailability(bytes), variant, undefined);
    writeDocBytes(doc, bytes);
    return outcome(variant, { avail: new Map([[ctx.primary.doc, textAvailability(bytes)]]) });
  }
  if (p.c < 0.1) {
    const bytes = new Uint8Array(0);
    const avail: Availability = doc.spec.model.type === "pdf" ? { readable: false, reason: "extraction-failed" } : { readable: true, content: "" };
    if (classOf(doc.spec.kind) === "snapshot") return editLivePage(ctx, doc, bytes, avail, "empty file", undefined);
    writeDocBytes(doc, bytes);
    return outcome("empty file", { avail: new Map([[ctx.primary.doc, avail]]) });
  }
  return editTarget(ctx, () => ({ edit: { start: q, end: L, insert: "" }, variant: "content" }));
}

// ---------------------------------------------------------------------------
// File-level mutations.

function mkfifo(path: string): void {
  execFileSync("mkfifo", ["-m", "644", path]);
}

/** Open a FIFO for writing (non-blocking) and close it: a reader blocked in open() gets EOF. */
function releaseFifo(path: string): () => void {
  return () => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // No reader waiting (ENXIO) or already gone.
    }
  };
}

function docsIn(world: World, dir: string): number[] {
  return world.docs.flatMap((d, i) => (classOf(d.spec.kind) !== "snapshot" && dirname(d.path) === dir ? [i] : []));
}

function snapshotDocs(world: World): number[] {
  return world.docs.flatMap((d, i) => (classOf(d.spec.kind) === "snapshot" ? [i] : []));
}

function allDocsUnder(world: World, dir: string): number[] {
  return world.docs.flatMap((d, i) => (classOf(d.spec.kind) !== "snapshot" && (d.path + "/").startsWith(dir + "/") ? [i] : []));
}

async function moveRename(ctx: MutationContext): Promise<MutationOutcome> {
  const doc = target(ctx);
  const v = ctx.params.variant;
  const i = ctx.primary.doc;
  if (classOf(doc.spec.kind) === "snapshot") {
    if (v < 0.4) {
      renameSync(doc.path, `${doc.path}.renamed`);
      return outcome("snapshot renamed", { avail: new Map([[i, { readable: false, reason: "snapshot-missing" }]]) });
    }
    rmSync(doc.path);
    if (v < 0.7) {
      mkdirSync(doc.path);
      return outcome("snapshot replaced by a directory", { avail: new Map([[i, { readable: false, reason: "snapshot-unreadable" }]]) });
    }
    mkfifo(doc.path);
    return outcome("snapshot replaced by a FIFO", { avail: new Map([[i, { readable: false, reason: "snapshot-unreadable" }]]), unblock: releaseFifo(doc.path) });
  }
  const file = basename(doc.path);
  if (v < 0.3) {
    renameSync(doc.path, join(dirname(doc.path), `renamed-${file}`));
    return outcome("renamed in place", { avail: new Map([[i, { readable: false, reason: "missing" }]]) });
  }
  if (v < 0.5) {
    mkdirSync(join(ctx.world.docsDir, "moved"), { recursive: true });
    renameSync(doc.path, join(ctx.world.docsDir, "moved", file));
    return outcome("moved to another folder", { avail: new Map([[i, { readable: false, reason: "missing" }]]) });
  }
  if (v < 0.65) {
    renameSync(doc.path, join(ctx.world.outsideDir, file));
    return outcome("moved outside the base dir", { avail: new Map([[i, { readable: false, reason: "missing" }]]) });
  }
  rmSync(doc.path);
  if (v < 0.8) {
    mkdirSync(doc.path);
    return outcome("replaced by a directory", { avail: new Map([[i, { readable: false, reason: "not-a-file" }]]) });
  }
  mkfifo(doc.path);
  return outcome("replaced by a FIFO", { avail: new Map([[i, { readable: false, reason: "not-a-file" }]]), unblock: releaseFifo(doc.path) });
}

async function symlinkEscape(ctx: MutationContext): Promise<MutationOutcome> {
  const { world } = ctx;
  const doc = target(ctx);
  const v = ctx.params.variant;
  const i = ctx.primary.doc;
  if (classOf(doc.spec.kind) === "snapshot") {
    const escapes = { readable: false, reason: "snapshot-symlink" } as const;
    let dest: string;
    let variant: string;
    const other = snapshotDocs(world).find((k) => k !== i);
    if (v < 0.5 || (v < 0.8 && other === undefined)) {
      dest = join(world.outsideDir, `snapshot-${doc.documentId}`);
      copyFileSync(doc.path, dest);
      variant = "snapshot -> identical copy outside";
    } else if (v < 0.8) {
      dest = world.docs[other!]!.path;
      variant = "snapshot -> another snapshot";
    } else {
      dest = `${doc.path}.copy`;
      copyFileSync(doc.path, dest);
      variant = "snapshot -> identical copy beside it";
    }
    rmSync(doc.path);
    symlinkSync(dest, doc.path);
    return outcome(variant, { avail: new Map([[i, escapes]]) });
  }
  const file = basename(doc.path);
  const outsideCopy = join(world.outsideDir, file);
  if (v < 0.6 && v >= 0.45 && doc.spec.dir === "sub") {
    // The whole sub-directory becomes a symlink to an identical directory outside.
    const sub = dirname(doc.path);
    const affected = allDocsUnder(world, sub);
    renameSync(sub, join(world.outsideDir, "sub"));
    symlinkSync(join(world.outsideDir, "sub"), sub);
    return outcome("directory -> identical directory outside", {
      avail: new Map(affected.map((k) => [k, { readable: false, reason: "escapes" } as Availability])),
    });
  }
  if (v < 0.75) {
    copyFileSync(doc.path, outsideCopy);
    rmSync(doc.path);
    if (v < 0.3) {
      symlinkSync(outsideCopy, doc.path);
      return outcome("file -> identical copy outside (absolute)", { avail: new Map([[i, { readable: false, reason: "escapes" }]]) });
    }
    if (v < 0.45 || doc.spec.dir !== "sub") {
      symlinkSync(relative(dirname(doc.path), outsideCopy), doc.path);
      return outcome("file -> identical copy outside (relative)", { avail: new Map([[i, { readable: false, reason: "escapes" }]]) });
    }
    const hop = join(world.docsDir, `.hop-${file}`);
    symlinkSync(outsideCopy, hop);
    symlinkSync(hop, doc.path);
    return outcome("file -> link inside -> copy outside", { avail: new Map([[i, { readable: false, reason: "escapes" }]]) });
  }
  if (v < 0.9) {
    const shadow = join(world.docsDir, ".shadow");
    mkdirSync(shadow, { recursive: true });
    copyFileSync(doc.path, join(shadow, file));
    rmSync(doc.path);
    symlinkSync(join(shadow, file), doc.path);
    // Control: a symlink that stays inside the base dir is followed.
    return outcome("file -> identical copy inside (control)");
  }
  rmSync(doc.path);
  if (v < 0.95) {
    symlinkSync(join(world.docsDir, "nowhere", file), doc.path);
    return outcome("dangling symlink", { avail: new Map([[i, { readable: false, reason: "missing" }]]) });
  }
  const other = `${doc.path}.loop`;
  symlinkSync(other, doc.path);
  symlinkSync(doc.path, other);
  return outcome("symlink loop", { avail: new Map([[i, { readable: false, reason: "symlink-loop" }]]) });
}

/** Let `nobody` traverse the world and read what it should be able to read. */
function openWorldToOthers(world: World): void {
  for (const dir of [world.dir, world.docsDir, join(world.docsDir, "sub"), world.indexDir, world.snapshotDir]) {
    try {
      chmodSync(dir, 0o755);
    } catch {
      // Not every world has a sub-directory or snapshots.
    }
  }
  for (const k of snapshotDocs(world)) chmodSync(world.docs[k]!.path, 0o644);
}

async function unreadable(ctx: MutationContext): Promise<MutationOutcome> {
  const { world, perm } = ctx;
  if (perm.mode === "skip") return outcome("skipped", { skipped: perm.note });
  const doc = target(ctx);
  const v = ctx.params.variant;
  const i = ctx.primary.doc;
  const asNobody = perm.mode === "worker";
  if (asNobody) openWorldToOthers(world);
  if (classOf(doc.spec.kind) === "snapshot") {
    if (v < 0.7) {
      chmodSync(doc.path, 0o000);
      return outcome("snapshot chmod 000", { avail: new Map([[i, { readable: false, reason: "snapshot-unreadable" }]]), verifyAsNobody: asNobody });
    }
    chmodSync(world.snapshotDir, 0o000);
    return outcome("snapshot dir chmod 000", {
      avail: new Map(snapshotDocs(world).map((k) => [k, { readable: false, reason: "snapshot-unreadable" } as Availability])),
      verifyAsNobody: asNobody,
    });
  }
  if (v < 0.6) {
    chmodSync(doc.path, 0o000);
    return outcome("file chmod 000", { avail: new Map([[i, { readable: false, reason: "permission" }]]), verifyAsNobody: asNobody });
  }
  if (v < 0.8) {
    chmodSync(doc.path, 0o200);
    return outcome("file chmod 200 (write only)", { avail: new Map([[i, { readable: false, reason: "permission" }]]), verifyAsNobody: asNobody });
  }
  const dir = dirname(doc.path);
  const affected = dir === world.docsDir ? allDocsUnder(world, dir) : docsIn(world, dir);
  chmodSync(dir, 0o000);
  return outcome(dir === world.docsDir ? "base dir chmod 000" : "folder chmod 000", {
    avail: new Map(affected.map((k) => [k, { readable: false, reason: "permission" } as Availability])),
    verifyAsNobody: asNobody,
  });
}

/** Invalid UTF-8 sequences: lone 0xFF, truncated 3-byte, overlong, surrogate, stray continuation, beyond U+10FFFF. */
const BAD_SEQUENCES: readonly (readonly number[])[] = [[0xff], [0xe6, 0x97], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0x80], [0xf4, 0x90, 0x80, 0x80], [0xc3]];

function spliceBytes(bytes: Uint8Array, at: number, insert: readonly number[]): Uint8Array {
  const out = new Uint8Array(bytes.length + insert.length);
  out.set(bytes.subarray(0, at), 0);
  out.set(insert, at);
  out.set(bytes.subarray(at), at + insert.length);
  return out;
}

/** A content position before, inside or after the primary span, chosen by `f` and `g`. */
function positionAround(s: number, e: number, L: number, f: number, g: number): { pos: number; where: string } {
  if (f < 0.34 && s > 0) return { pos: at(0, s - 1, g), where: "before" };
  if (f < 0.67 && e > s) return { pos: at(s, e - 1, g), where: "inside" };
  return { pos: at(e, L, g), where: "after" };
}

async function breakEncoding(ctx: MutationContext): Promise<MutationOutcome> {
  const doc = target(ctx);
  const { s, e, L, content } = span(ctx);
  const p = ctx.params;
  const i = ctx.primary.doc;
  const seq = BAD_SEQUENCES[Math.floor(p.b * BAD_SEQUENCES.length)]!;
  if (classOf(doc.spec.kind) === "snapshot") {
    const { pos, where } = positionAround(s, e, L, p.a, p.c);
    const snap = new Uint8Array(Buffer.from(content, "utf8"));
    const bytes = spliceBytes(snap, byteOffsetOf(content, pos), seq);
    writeFileSync(doc.path, bytes);
    return outcome(`snapshot bytes invalid (${where})`, { avail: new Map([[i, snapshotAvailability(bytes)]]) });
  }
  if (doc.spec.model.type === "pdf") {
    const garbage = new Uint8Array(doc.bytes.length);
    for (let k = 0, x = Math.floor(p.a * 1e9); k < garbage.length; k++) {
      x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
      garbage[k] = 0x80 | (x >>> 25);
    }
    writeDocBytes(doc, garbage);
    return outcome("PDF overwritten with non-PDF bytes", { avail: new Map([[i, { readable: false, reason: "extraction-failed" }]]) });
  }
  if (doc.spec.model.type === "html") {
    const html = utf8(doc.bytes);
    let bytes: Uint8Array;
    let variant: string;
    if (p.variant < 0.25 && [...html].some((ch) => ch.codePointAt(0)! > 0x7f)) {
      bytes = new Uint8Array(Buffer.from(html, "latin1"));
      variant = "re-encoded as Latin-1";
    } else {
      bytes = spliceBytes(doc.bytes, at(0, doc.bytes.length, p.a), seq);
      variant = "invalid UTF-8 bytes";
    }
    writeDocBytes(doc, bytes);
    // The document declares UTF-8, so the extractor must refuse it; valid bytes would be unchanged bytes.
    const avail: Availability = isUtf8(bytes) ? { readable: true, content } : { readable: false, reason: "extraction-failed" };
    return outcome(variant, { avail: new Map([[i, avail]]) });
  }
  const raw = utf8(doc.bytes);
  let bytes: Uint8Array;
  let variant: string;
  if (p.variant < 0.15) {
    bytes = new Uint8Array(Buffer.from("\ufeff" + raw.replace(/^\ufeff/, ""), "utf16le"));
    variant = "re-encoded as UTF-16LE";
  } else if (p.variant < 0.3) {
    bytes = new Uint8Array(Buffer.from(raw, "latin1"));
    variant = "re-encoded as Latin-1";
  } else {
    const { pos, where } = positionAround(s, e, L, p.a, p.c);
    const nul = p.variant < 0.4;
    bytes = spliceBytes(doc.bytes, byteOffsetOf(raw, pos), nul ? [0] : seq);
    variant = nul ? `NUL byte (${where})` : `invalid UTF-8 (${where})`;
  }
  writeDocBytes(doc, bytes);
  return outcome(variant, { avail: new Map([[i, textAvailability(bytes)]]) });
}

async function extractorIdentity(ctx: MutationContext): Promise<MutationOutcome> {
  const doc = target(ctx);
  const v = ctx.params.variant;
  const i = ctx.primary.doc;
  const registry = await getExtractorRegistry();
  const active = registry.activeIdentities();
  const made = "groundkit-fuzz-extractor/9.9.9";
  if (classOf(doc.spec.kind) === "snapshot") {
    if (v < 0.5) {
      const identity = active[0] ?? made;
      return outcome("snapshot cited as extracted", {
        editCitation: (c) => ({ ...c, source_class: "extracted", extractor: identity }),
        avail: new Map([[i, { readable: false, reason: "class-mismatch" }]]),
      });
    }
    return outcome("snapshot cited as text", {
      editCitation: (c) => ({ ...c, source_class: "text", extractor: null }),
      avail: new Map([[i, { readable: false, reason: "class-mismatch" }]]),
    });
  }
  if (classOf(doc.spec.kind) === "text") {
    const forged = v < 0.5 ? made : `${(active[0] ?? made).replace(/\/[^/]*$/, "")}/0.0.1`;
    return outcome("text cited as extracted", {
      editCitation: (c) => ({ ...c, source_class: "extracted", extractor: forged }),
      avail: new Map([[i, { readable: false, reason: "class-mismatch" }]]),
    });
  }
  const recorded = ctx.primary.citation.extractor ?? "";
  const other = active.find((id) => id !== recorded);
  if (v >= 0.4 && v < 0.7 && other !== undefined) {
    // Active, but not the extractor the document was indexed with: refused before any extraction.
    return outcome("the other active extractor", {
      editCitation: (c) => ({ ...c, extractor: other }),
      avail: new Map([[i, { readable: false, reason: "extractor-mismatch" }]]),
      mustMention: new Map([[i, [other, recorded]]]),
    });
  }
  const forged = v < 0.4 ? `${recorded.slice(0, recorded.lastIndexOf("/"))}/0.0.1` : made;
  return outcome(v < 0.4 ? "same package, another version" : "unknown extractor", {
    editCitation: (c) => ({ ...c, extractor: forged }),
    avail: new Map([[i, { readable: false, reason: "extractor-mismatch" }]]),
    mustMention: new Map([[i, [forged, recorded]]]),
  });
}

async function snapshotTamper(ctx: MutationContext): Promise<MutationOutcome> {
  const { world, params: p } = ctx;
  const doc = target(ctx);
  const { s, e, L, content } = span(ctx);
  const i = ctx.primary.doc;
  let text: string;
  let variant: string;
  let predicted: number | undefined;
  if (p.variant < 0.5) {
    const makers: Array<[string, EditMaker]> = [
      ["insert before", makeInsertBefore],
      ["insert after", makeInsertAfter],
      ["same length", makeSameLength],
      ["insert inside", makeInsertInside],
      ["delete inside", makeDeleteInside],
    ];
    if (s > 0) makers.push(["delete before", makeDeleteBefore]);
    if (e < L) makers.push(["delete after", makeDeleteAfter]);
    const [name, make] = makers[Math.floor(p.c * makers.length)]!;
    if ((name === "insert inside" && e - s < 2) || (name === "delete inside" && e === s)) {
      text = content + p.text;
      variant = "text appended";
      predicted = s;
    } else {
      const made = make(s, e, L, content, p, "url-md");
      const c = cps(content);
      text = c.slice(0, made.edit.start).join("") + made.edit.insert + c.slice(made.edit.end).join("");
      variant = `${name} (${made.variant})`;
      predicted = made.predicted;
    }
  } else if (p.variant < 0.6) {
    text = cpSlice(content, 0, at(0, L, p.a));
    variant = "truncated";
  } else if (p.variant < 0.7) {
    const other = world.docs.find((d, k) => k !== i);
    text = other ? other.content : cps(content).reverse().join("");
    variant = "replaced by other content";
  } else if (p.variant < 0.8) {
    text = content.replace(/\n/g, "\r\n");
    variant = "CRLF line ends";
  } else if (p.variant < 0.9) {
    text = "\ufeff" + content;
    variant = "BOM prepended";
    predicted = s + 1;
  } else {
    text = content + p.text;
    variant = "text appended";
  }
  const bytes = new Uint8Array(Buffer.from(text, "utf8"));
  writeFileSync(doc.path, bytes);
  return outcome(variant, { avail: new Map([[i, snapshotAvailability(bytes)]]), predicted });
}

async function snapshotDelete(ctx: MutationContext): Promise<MutationOutcome> {
  const { world } = ctx;
  const doc = target(ctx);
  const v = ctx.params.variant;
  const i = ctx.primary.doc;
  if (v < 0.5) {
    rmSync(doc.path);
    return outcome("snapshot file deleted", { avail: new Map([[i, { readable: false, reason: "snapshot-missing" }]]) });
  }
  if (v < 0.7) {
    rmSync(world.snapshotDir, { recursive: true });
    return outcome("snapshot directory deleted", {
      avail: new Map(snapshotDocs(world).map((k) => [k, { readable: false, reason: "snapshot-missing" } as Availability])),
    });
  }
  writeFileSync(doc.path, "");
  return outcome("snapshot emptied", { avail: new Map([[i, { readable: true, content: "" }]]) });
}

async function deleteReingest(ctx: MutationContext): Promise<MutationOutcome> {
  const { world, params: p } = ctx;
  const doc = target(ctx);
  const i = ctx.primary.doc;
  const v = p.variant;
  const snapshot = classOf(doc.spec.kind) === "snapshot";
  const failures: Failure[] = [];
  const before = await world.store.getChunk(ctx.primary.citation.chunk_id);

  if (v < 0.25) {
    await world.col.deleteDocument(doc.documentId);
    return outcome("deleted", {
      indexChanged: true,
      avail: new Map([[i, { readable: false, reason: "not-indexed" }]]),
    });
  }
  if (v < 0.5) {
    await world.col.deleteDocument(doc.documentId);
    await reingest(world);
    // Deterministic ids: the same content re-ingested gives back the same citation.
    const after = await world.store.getChunk(ctx.primary.citation.chunk_id);
    if (!before || !after || after.text_hash !== before.text_hash || after.start_offset !== before.start_offset) {
      failures.push({ kind: "invariant", message: `deleting and re-ingesting unchanged ${doc.spec.kind} content did not restore chunk ${ctx.primary.citation.chunk_id}` });
    }
    return outcome("deleted, re-ingested unchanged", { indexChanged: true, failures });
  }
  if (v >= 0.9) {
    if (snapshot) {
      world.server.delete(doc.urlPath!);
      await reingest(world);
      if ((await world.store.getDocument(doc.documentId))?.content_hash !== sha256Hex(doc.content)) {
        failures.push({ kind: "invariant", message: "a failed re-fetch changed the stored document" });
      }
      return outcome("page gone (404), re-ingested", { indexChanged: true, failures });
    }
    rmSync(doc.path);
    await reingest(world);
    if (await world.store.getDocument(doc.documentId)) failures.push({ kind: "invariant", message: "a deleted file was not pruned by re-ingest" });
    return outcome("file deleted, re-ingested (pruned)", { indexChanged: true, failures, avail: new Map([[i, { readable: false, reason: "not-indexed" }]]) });
  }
  // Edit the source, then (maybe delete and) re-ingest.
  const { L, content } = span(ctx);
  const pos = at(0, L, p.a);
  const edit: ContentEdit = p.b < 0.5 ? { start: pos, end: pos, insert: p.text } : { start: pos, end: Math.min(L, pos + 1 + Math.floor(p.c * 30)), insert: "" };
  const result = await applyEdit(doc.spec.model, doc.bytes, content, edit);
  const deleteFirst = v < 0.7;
  if (deleteFirst) await world.col.deleteDocument(doc.documentId);
  let avail: Availability | undefined;
  if (snapshot) {
    servePage(world, doc, result.bytes);
    const replaced = await reingestAndCheck(world, doc, result.avail, failures);
    if (replaced !== undefined) avail = { readable: true, content: replaced };
    else if (deleteFirst) avail = { readable: false, reason: "not-indexed" };
  } else {
    writeDocBytes(doc, result.bytes);
    await reingestAndCheck(world, doc, result.avail, failures);
    avail = result.avail;
  }
  return outcome(deleteFirst ? "edited, deleted, re-ingested" : "edited, re-ingested", {
    indexChanged: true,
    failures,
    avail: avail ? new Map([[i, avail]]) : new Map(),
  });
}

/** The mutation registry. */
export const MUTATIONS: Record<MutationKind, MutationDef> = {
  control: { kinds: DOC_KINDS, apply: async () => outcome("nothing changed") },
  insert_before: { kinds: DOC_KINDS, apply: (ctx) => editTarget(ctx, makeInsertBefore) },
  insert_inside: { kinds: DOC_KINDS, accepts: (s, e) => e - s >= 2, apply: (ctx) => editTarget(ctx, makeInsertInside) },
  insert_after: { kinds: DOC_KINDS, apply: (ctx) => editTarget(ctx, makeInsertAfter) },
  delete_before: { kinds: DOC_KINDS, accepts: (s) => s > 0, apply: (ctx) => editTarget(ctx, makeDeleteBefore) },
  delete_inside: { kinds: DOC_KINDS, accepts: (s, e) => e > s, apply: (ctx) => editTarget(ctx, makeDeleteInside) },
  delete_after: { kinds: DOC_KINDS, accepts: (_s, e, L) => e < L, apply: (ctx) => editTarget(ctx, makeDeleteAfter) },
  same_length_edit: { kinds: DOC_KINDS, accepts: (s, e) => e > s, apply: (ctx) => editTarget(ctx, makeSameLength) },
  truncate: { kinds: DOC_KINDS, apply: truncate },
  move_rename: { kinds: DOC_KINDS, apply: moveRename },
  symlink_escape: { kinds: DOC_KINDS, apply: symlinkEscape },
  unreadable: { kinds: DOC_KINDS, apply: unreadable },
  break_encoding: { kinds: DOC_KINDS, apply: breakEncoding },
  extractor_identity: { kinds: DOC_KINDS, apply: extractorIdentity },
  snapshot_tamper: { kinds: URL_KINDS, apply: snapshotTamper },
  snapshot_delete: { kinds: URL_KINDS, apply: snapshotDelete },
  delete_reingest: { kinds: DOC_KINDS, apply: deleteReingest },
};
