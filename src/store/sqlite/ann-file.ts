/**
 * The ANN index's files beside the collection's SQLite file:
 * - `<db>.ann.json`, the header: what the index was built at (epoch, log seq,
 *   vector digest; see vector-log.ts), the library and settings, and which data file;
 * - `<db>.ann-<epoch>-<seq>.usearch`, the data file that header names;
 * - `<db>.ann-<epoch>-<seq>.vectors`, the float vectors its candidates are re-ranked
 *   by (ann-vectors.ts), at the same state.
 *
 * The vectors file, then the data file, are written under temporary names and renamed,
 * then the header is written the same way, so the header always names complete files
 * built at exactly the state it records, even with two processes saving at once (the last
 * header wins; both are valid). A reader that has an older data file mapped keeps
 * reading it after it is replaced or unlinked (the inode lives on).
 */
import { existsSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AnnSettings, NativeAnnIndex } from "./ann-native.js";
import type { VectorState } from "./vector-log.js";

/** 2: single-threaded, append-only `multi` graphs; a format-1 file may carry stranded nodes and is rebuilt. */
export const ANN_FORMAT = 2;

export interface AnnHeader extends VectorState {
  format: number;
  library: string;
  settings: AnnSettings;
  /** Committed vectors the data file holds (one current node each). */
  count: number;
  /** Stale nodes the graph still carries besides them (folds add them; a build starts at 0). */
  tombstones?: number;
  /** The data file's name (in the collection's folder). */
  file: string;
  /** The re-rank vectors file's name; absent in an index saved before it existed (re-ranked from sqlite-vec). */
  vectors?: string;
}

export function headerPath(dbPath: string): string {
  return `${dbPath}.ann.json`;
}

/** The header, or undefined when absent or unreadable (a torn or foreign file is rebuilt, never trusted). */
export function readAnnHeader(dbPath: string): AnnHeader | undefined {
  try {
    const h = JSON.parse(readFileSync(headerPath(dbPath), "utf8")) as AnnHeader;
    if (h.format !== ANN_FORMAT || !isLocalName(h.file) || typeof h.seq !== "number") return undefined;
    if (h.vectors !== undefined && !isLocalName(h.vectors)) return undefined;
    return h;
  } catch {
    return undefined;
  }
}

export function dataPath(dbPath: string, header: Pick<AnnHeader, "file">): string {
  return join(dirname(dbPath), header.file);
}

function isLocalName(name: unknown): name is string {
  return typeof name === "string" && name !== "" && !name.includes("/") && !name.includes("\\");
}

/** The re-rank vectors file the header names, or undefined for an index saved without one. */
export function vectorsPath(dbPath: string, header: Pick<AnnHeader, "vectors">): string | undefined {
  return header.vectors === undefined ? undefined : join(dirname(dbPath), header.vectors);
}

/** Bytes of the header's data and vectors files (0 for a missing one). */
export function dataFileBytes(dbPath: string, header: AnnHeader): number {
  let bytes = 0;
  for (const path of [dataPath(dbPath, header), vectorsPath(dbPath, header)]) {
    try {
      if (path !== undefined) bytes += statSync(path).size;
    } catch {
      // Missing: counted as 0.
    }
  }
  return bytes;
}

let tmpCounter = 0;

/**
 * Save the index for `header`'s state: `writeVectors` writes the re-rank vectors file
 * (at the path given, through a temporary name made with the unique suffix), then
 * `index` goes to the data file (or `{ keep }` names a data file already saved at
 * this state), then the header; files no header names are removed.
 */
export function saveAnnIndex(
  dbPath: string,
  index: NativeAnnIndex | { keep: string },
  header: Omit<AnnHeader, "file" | "format" | "vectors">,
  writeVectors: (path: string, unique: string) => void,
): AnnHeader {
  const stem = `${basename(dbPath)}.ann-${header.epoch || "0"}-${header.seq}`;
  const file = "keep" in index ? index.keep : `${stem}.usearch`;
  const full: AnnHeader = { format: ANN_FORMAT, ...header, file, vectors: `${stem}.vectors` };
  const unique = `${process.pid}-${++tmpCounter}`;
  writeVectors(vectorsPath(dbPath, full)!, unique);
  if (!("keep" in index)) {
    const data = dataPath(dbPath, full);
    const tmpData = `${data}.${unique}.tmp`;
    index.save(tmpData);
    renameSync(tmpData, data);
  }
  const tmpHeader = `${headerPath(dbPath)}.${unique}.tmp`;
  writeFileSync(tmpHeader, JSON.stringify(full), { mode: 0o600 });
  renameSync(tmpHeader, headerPath(dbPath));
  removeStaleDataFiles(dbPath, [full.file, full.vectors!]);
  return full;
}

/** Data and vectors files of this collection other than `keep` (older states, a killed save's temp files). */
function removeStaleDataFiles(dbPath: string, keep: readonly string[]): void {
  const prefix = `${basename(dbPath)}.ann-`;
  for (const name of readdirSync(dirname(dbPath))) {
    if (!name.startsWith(prefix) || keep.includes(name)) continue;
    // Another process's save in flight has a temp file younger than a minute: leave it.
    const path = join(dirname(dbPath), name);
    try {
      if (name.endsWith(".tmp") && Date.now() - statSync(path).mtimeMs < 60_000) continue;
      unlinkSync(path);
    } catch {
      // Already gone (another process cleaned up): nothing to do.
    }
  }
}

/** Remove the header and every data file (the collection has no index any more). */
export function removeAnnFiles(dbPath: string): void {
  if (existsSync(headerPath(dbPath))) unlinkSync(headerPath(dbPath));
  removeStaleDataFiles(dbPath, []);
}
