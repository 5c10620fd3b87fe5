/**
 * A collection's document history as the library offers it: the retention a
 * collection records (meta key `history`), a document's versions, and the
 * text of one of them (docs/decisions/0031-document-history.md).
 */
import { isAbsolute } from "node:path";
import type { Citation } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { documentIdFor } from "../core/ids.js";
import { hasUrlScheme } from "../net/url-shape.js";
import { assembleVersion, DEFAULT_HISTORY_RETENTION, type HistoryRetention } from "../store/history.js";
import type { Store, StoredDocument } from "../store/store.js";

export { DEFAULT_HISTORY_RETENTION, type HistoryRetention } from "../store/history.js";

/** The meta key holding a collection's retention (JSON). */
const META_KEY = "history";

/** The retention a collection recorded, or the defaults. */
export async function recordedRetention(store: Store): Promise<HistoryRetention> {
  const raw = await store.getMeta(META_KEY);
  if (raw === undefined) return { ...DEFAULT_HISTORY_RETENTION };
  try {
    return { ...DEFAULT_HISTORY_RETENTION, ...(JSON.parse(raw) as Partial<HistoryRetention>) };
  } catch {
    return { ...DEFAULT_HISTORY_RETENTION };
  }
}

/**
 * At the start of an ingest (under the writer lock): record a changed retention (turning history off drops what
 * was kept), and record history in this ingest's writes when it is on. Returns the retention in force.
 */
export async function applyRetention(store: Store, change: Partial<HistoryRetention> | undefined): Promise<HistoryRetention> {
  const recorded = await recordedRetention(store);
  const next = { ...recorded, ...change };
  if (JSON.stringify(recorded) !== JSON.stringify(next)) {
    await store.setMeta(META_KEY, JSON.stringify(next));
    if (recorded.enabled && !next.enabled) await store.pruneHistory(next, new Date());
  }
  await store.setHistoryRecording(next.enabled);
  return next;
}

const SIZE = /^([0-9]+(?:\.[0-9]+)?)\s*(B|KB|MB|GB|KiB|MiB|GiB)?$/i;
const UNITS: Record<string, number> = { b: 1, kb: 1e3, mb: 1e6, gb: 1e9, kib: 1024, mib: 1024 ** 2, gib: 1024 ** 3 };

/**
 * A retention as a user writes it: `off`, `on`, or any of `versions=N`, `days=N`, `bytes=SIZE`
 * (`256MiB`, `1GB`), comma-separated; what is not named keeps its recorded value.
 *
 * @example
 *   parseHistorySpec("versions=5,days=30") // { enabled: true, versions: 5, max_age_days: 30 }
 */
export function parseHistorySpec(spec: string): Partial<HistoryRetention> {
  const s = spec.trim().toLowerCase();
  if (s === "off") return { enabled: false };
  if (s === "on") return { enabled: true };
  const out: Partial<HistoryRetention> = { enabled: true };
  for (const part of s.split(",")) {
    const [key, value = ""] = part.split("=", 2).map((p) => p.trim()) as [string, string?];
    const whole = /^[0-9]{1,9}$/.test(value) ? Number(value) : NaN;
    if (key === "versions" && whole >= 1) out.versions = whole;
    else if (key === "days" && whole >= 1) out.max_age_days = whole;
    else if (key === "bytes" && SIZE.test(value)) {
      const m = SIZE.exec(value)!;
      out.max_bytes = Math.round(Number(m[1]) * UNITS[(m[2] ?? "b").toLowerCase()]!);
    } else {
      throw new GroundkitError(
        "INVALID_ARGUMENT",
        `Cannot read the history retention '${spec}' at '${part}': write off, on, or versions=N,days=N,bytes=SIZE (e.g. versions=5,days=30,bytes=100MB).`,
      );
    }
  }
  return out;
}

/** One version of a document in {@link DocumentHistory}. */
export interface DocumentVersionEntry {
  /** 0 is the version indexed now; 1 the one before it, and so on. */
  version: number;
  source: string;
  ingested_at: string;
  /** When it stopped being current (null for the current one). */
  superseded_at: string | null;
  status: "current" | "replaced" | "removed";
  /** Length of its text in code points. */
  chars: number;
  /** UTF-8 bytes of its chunks' text. */
  bytes: number | null;
  content_hash: string;
}

/** What `grk history` prints (stable `--json` shape). */
export interface DocumentHistory {
  document_id: string;
  source: string;
  versions: DocumentVersionEntry[];
}

/** The text of one version, put back together from its chunks. */
export interface DocumentVersionText {
  document_id: string;
  source: string;
  version: number;
  ingested_at: string;
  text: string;
  /** False when the whitespace between chunks had to be guessed (the text inside chunks is exact either way). */
  exact: boolean;
}

/**
 * The document id a reference names, the document's current row included when it has one. A removed document
 * is named by its source (absolute path or URL) or its full id.
 */
async function documentIdOf(
  ref: string,
  findCurrent: (ref: string) => Promise<StoredDocument | undefined>,
): Promise<{ id: string; current: StoredDocument | undefined }> {
  const current = await findCurrent(ref);
  if (current) return { id: current.document_id, current };
  return { id: isAbsolute(ref) || hasUrlScheme(ref) ? documentIdFor(ref) : ref, current: undefined };
}

/** A document's versions, current first; DOCUMENT_NOT_FOUND when it has neither a current version nor history. */
export async function documentHistory(
  store: Store,
  ref: string,
  findCurrent: (ref: string) => Promise<StoredDocument | undefined>,
  collection: string,
): Promise<DocumentHistory> {
  const { id, current } = await documentIdOf(ref, findCurrent);
  const previous = await store.historyOf(id);
  if (!current && previous.length === 0) {
    throw new GroundkitError("DOCUMENT_NOT_FOUND", `No document ${ref} in collection '${collection}', nor any version of one kept in its history.`);
  }
  const versions: DocumentVersionEntry[] = [];
  if (current) {
    const chunks = await store.chunksOf(current.document_id);
    versions.push({
      version: 0,
      source: current.source,
      ingested_at: current.ingested_at,
      superseded_at: null,
      status: "current",
      chars: current.content_length,
      bytes: chunks.reduce((n, c) => n + Buffer.byteLength(c.text), 0),
      content_hash: current.content_hash,
    });
  }
  previous.forEach((v, i) =>
    versions.push({
      version: i + 1,
      source: v.source,
      ingested_at: v.ingested_at,
      superseded_at: v.superseded_at,
      status: v.reason,
      chars: v.content_length,
      bytes: v.bytes,
      content_hash: v.content_hash,
    }),
  );
  return { document_id: id, source: current?.source ?? previous[0]!.source, versions };
}

/**
 * The text of a version named by its number (0: current) or its ingest time (the full ISO time, or a prefix of
 * it: the newest version ingested then).
 */
export async function readVersion(
  store: Store,
  ref: string,
  which: string,
  findCurrent: (ref: string) => Promise<StoredDocument | undefined>,
  collection: string,
): Promise<DocumentVersionText> {
  const history = await documentHistory(store, ref, findCurrent, collection);
  const entry = /^[0-9]{1,6}$/.test(which)
    ? history.versions.find((v) => v.version === Number(which))
    : history.versions.find((v) => v.ingested_at.startsWith(which.trim()));
  if (!entry) {
    const kept = history.versions.map((v) => `${v.version} (${v.ingested_at})`).join(", ");
    throw new GroundkitError("VERSION_NOT_FOUND", `Document ${history.source} has no version '${which}'; kept: ${kept}.`);
  }
  const base = { document_id: history.document_id, source: entry.source, version: entry.version, ingested_at: entry.ingested_at };
  const chunks =
    entry.version === 0
      ? (await store.chunksOf(history.document_id)).map((c) => ({ ...c, hash: c.text_hash }))
      : await store.historySpans((await store.historyOf(history.document_id))[entry.version - 1]!.version_id);
  const { text, exact } = assembleVersion({ content_hash: entry.content_hash, content_length: entry.chars }, chunks);
  return { ...base, text, exact };
}

/** A chunk no longer indexed, as the newest kept version had it, with its citation then (undefined when none has it). */
export async function historyChunkView(
  store: Store,
  chunkId: string,
): Promise<{ chunk_id: string; document_id: string; text: string; heading_path: string[]; citation: Citation } | undefined> {
  const kept = await store.historyChunk(chunkId);
  const text = kept?.span.text;
  if (!kept || text == null) return undefined;
  const { version: v, span } = kept;
  const citation: Citation = {
    document_id: v.document_id,
    chunk_id: span.chunk_id,
    source: v.source,
    source_class: v.source_class,
    extractor: v.extractor,
    start_offset: span.start_offset,
    end_offset: span.end_offset,
    start_line: span.start_line,
    end_line: span.end_line,
    page_start: span.page_start,
    page_end: span.page_end,
    text_hash: span.hash,
  };
  // Heading paths are not kept in history: the text and its place are what a citation names.
  return { chunk_id: span.chunk_id, document_id: v.document_id, text, heading_path: [], citation };
}
