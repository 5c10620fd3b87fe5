/**
 * The ANN index's files beside the collection's SQLite file:
 * - `<db>.ann.json`, the header: what the index was built at (epoch, log seq,
 *   vector digest; see vector-log.ts), the library and settings, and which data file;
 * - `<db>.ann-<epoch>-<seq>.usearch`, the data file that header names.
 *
 * A data file is written under a temporary name and renamed, then the header is
 * written the same way, so the header always names a complete data file built at
 * exactly the state it records, even with two processes saving at once (the last
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
}

export function headerPath(dbPath: string): string {
  return `${dbPath}.ann.json`;
}

/** The header, or undefined when absent or unreadable (a torn or foreign file is rebuilt, never trusted). */
export function readAnnHeader(dbPath: string): AnnHeader | undefined {
  try {
    const h = JSON.parse(readFileSync(headerPath(dbPath), "utf8")) as AnnHeader;
    if (h.format !== ANN_FORMAT || typeof h.file !== "string" || h.file.includes("/") || typeof h.seq !== "number") return undefined;
    return h;
  } catch {
    return undefined;
  }
}

export function dataPath(dbPath: string, header: Pick<AnnHeader, "file">): string {
  return join(dirname(dbPath), header.file);
}

/** Bytes of the header's data file (0 when it is missing). */
export function dataFileBytes(dbPath: string, header: AnnHeader): number {
  try {
    return statSync(dataPath(dbPath, header)).size;
  } catch {
    return 0;
  }
}

let tmpCounter = 0;

/** Save `index` as the data file for `header`'s state, then the header; remove data files no header names. */
export function saveAnnIndex(dbPath: string, index: NativeAnnIndex, header: Omit<AnnHeader, "file" | "format">): AnnHeader {
  const file = `${basename(dbPath)}.ann-${header.epoch || "0"}-${header.seq}.usearch`;
  const full: AnnHeader = { format: ANN_FORMAT, ...header, file };
  const unique = `${process.pid}-${++tmpCounter}`;
  const data = join(dirname(dbPath), file);
  const tmpData = `${data}.${unique}.tmp`;
  index.save(tmpData);
  renameSync(tmpData, data);
  const tmpHeader = `${headerPath(dbPath)}.${unique}.tmp`;
  writeFileSync(tmpHeader, JSON.stringify(full), { mode: 0o600 });
  renameSync(tmpHeader, headerPath(dbPath));
  removeStaleDataFiles(dbPath, file);
  return full;
}

/** Data files of this collection other than `keep` (older states, a killed save's temp files). */
function removeStaleDataFiles(dbPath: string, keep: string): void {
  const prefix = `${basename(dbPath)}.ann-`;
  for (const name of readdirSync(dirname(dbPath))) {
    if (!name.startsWith(prefix) || name === keep) continue;
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
  removeStaleDataFiles(dbPath, "");
}
