/**
 * The ANN index's files beside the collection's SQLite file `<db>`:
 * - `<db>+ann.json`, the header: what the index was built at (epoch, log seq,
 *   vector digest; see vector-log.ts), the library and settings, and which data file;
 * - `<db>+ann-<epoch>-<seq>.usearch`, the data file that header names;
 * - `<db>+ann-<epoch>-<seq>.vectors`, the float vectors its candidates are re-ranked
 *   by (ann-vectors.ts), at the same state.
 *
 * Naming (docs/decisions/0026-derived-file-names.md): `+` cannot occur in a collection
 * name, so `<db>+` starts the names of this database's derived files and of no other
 * collection's file. Clean-up deletes only names of exactly these shapes that the
 * header does not name (never "everything starting with …": issue 25 #2 deleted
 * collection `notes.sqlite3.ann-1` that way). Files of the earlier `<db>.ann…` naming
 * are still read, and the next sync moves the header to the new name.
 *
 * The vectors file, then the data file, are written under temporary names and renamed,
 * then the header is written the same way, so the header always names complete files
 * built at exactly the state it records, even with two processes saving at once (the last
 * header wins; both are valid). A reader that has an older data file open keeps
 * reading it after it is replaced or unlinked (the inode lives on).
 */
import { constants, copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { AnnSettings, NativeAnnIndex } from "./ann-native.js";
import { AnnVectors, fileDigest, isStoredVector, vectorsFileDigest } from "./ann-vectors.js";
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
  /** The data file's size and SHA-256 when saved (absent in an index saved before ADR 0026): a changed file is never used. */
  file_bytes?: number;
  file_sha256?: string;
  /** SHA-256 of the vectors file after its head (ann-vectors.ts), checked by `grk doctor`. */
  vectors_sha256?: string;
}

export function headerPath(dbPath: string): string {
  return `${dbPath}+ann.json`;
}

/** The header of the naming before ADR 0026: read until the next sync rewrites it as {@link headerPath}. */
function legacyHeaderPath(dbPath: string): string {
  return `${dbPath}.ann.json`;
}

/** The header, or undefined when absent or unreadable (a torn or foreign file is rebuilt, never trusted). */
export function readAnnHeader(dbPath: string): AnnHeader | undefined {
  return parseHeader(headerPath(dbPath)) ?? parseHeader(legacyHeaderPath(dbPath));
}

function parseHeader(path: string): AnnHeader | undefined {
  try {
    const h = JSON.parse(readFileSync(path, "utf8")) as AnnHeader;
    if (h.format !== ANN_FORMAT || !isLocalName(h.file) || typeof h.seq !== "number") return undefined;
    if (h.vectors !== undefined && !isLocalName(h.vectors)) return undefined;
    return h;
  } catch {
    return undefined;
  }
}

/**
 * Writer only: an index saved under the earlier naming gets its header under the new name (naming the
 * same data files, which stay until the next save replaces them), and the old header goes.
 */
export function migrateLegacyHeader(dbPath: string): void {
  if (!existsSync(legacyHeaderPath(dbPath))) return;
  const legacy = parseHeader(legacyHeaderPath(dbPath));
  if (legacy !== undefined && parseHeader(headerPath(dbPath)) === undefined) writeHeader(dbPath, legacy);
  unlinkSync(legacyHeaderPath(dbPath));
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
 * (at the path given, through a temporary name made with the unique suffix) and returns
 * its digest, then `index` goes to the data file (or `{ keep }` names a data file already
 * saved at this state, whose size and digest `header` carries), then the header; files
 * no header names are removed.
 */
export function saveAnnIndex(
  dbPath: string,
  index: NativeAnnIndex | { keep: string },
  header: Omit<AnnHeader, "file" | "format" | "vectors" | "vectors_sha256">,
  writeVectors: (path: string, unique: string) => string,
): AnnHeader {
  const stem = `${basename(dbPath)}+ann-${header.epoch || "0"}-${header.seq}`;
  const file = "keep" in index ? index.keep : `${stem}.usearch`;
  const full: AnnHeader = { format: ANN_FORMAT, ...header, file, vectors: `${stem}.vectors` };
  const unique = uniqueSuffix();
  full.vectors_sha256 = writeVectors(vectorsPath(dbPath, full)!, unique);
  if (!("keep" in index)) {
    const data = dataPath(dbPath, full);
    const tmpData = `${data}.${unique}.tmp`;
    index.save(tmpData);
    full.file_bytes = statSync(tmpData).size;
    full.file_sha256 = fileDigest(tmpData);
    renameSync(tmpData, data);
  }
  writeHeader(dbPath, full);
  if (existsSync(legacyHeaderPath(dbPath))) unlinkSync(legacyHeaderPath(dbPath));
  removeStaleDataFiles(dbPath, [full.file, full.vectors!]);
  return full;
}

function uniqueSuffix(): string {
  return `${process.pid}-${++tmpCounter}`;
}

function writeHeader(dbPath: string, header: AnnHeader): void {
  const tmpHeader = `${headerPath(dbPath)}.${uniqueSuffix()}.tmp`;
  writeFileSync(tmpHeader, JSON.stringify(header), { mode: 0o600 });
  renameSync(tmpHeader, headerPath(dbPath));
}

/**
 * Whether `name` is a file this module writes for the database named `db` (a data or vectors file, or a
 * temporary file of a save), in the current naming or the earlier `<db>.ann-…` one. Exact shapes only:
 * every one ends in `.usearch`, `.vectors` or `.<pid>-<n>.tmp`, which no collection's own file does.
 */
export function isDerivedAnnFile(db: string, name: string): boolean {
  if (!name.startsWith(db)) return false;
  return DERIVED_TAIL.test(name.slice(db.length));
}

/** After `<db>`: `+ann-<epoch>-<seq>.usearch|vectors` (or `.ann-…`, the earlier naming), or a header temp, each maybe a save's temp. */
const DERIVED_TAIL = /^(?:[+.]ann-[0-9a-f]+-[0-9]+\.(?:usearch|vectors)(?:\.[0-9]+-[0-9]+\.tmp)?|[+.]ann\.json\.[0-9]+-[0-9]+\.tmp)$/;

/**
 * Put the header's data file into `index` so that nothing done to the file afterwards can hurt the process:
 * a mapped file that shrinks (truncated, or a backup restored with `cp` over it) kills a process that reads
 * it with SIGBUS (issue 25 #13). So the graph is mapped from a private copy (a reflink where the file system
 * has them, else a copy) that is unlinked at once: nobody else can reach it. Where no copy can be made (a
 * read-only folder) the graph is loaded into memory instead. A file whose size is not the one its header
 * recorded is refused.
 *
 * @throws Error when the file is missing, not the recorded size, or not a graph usearch can read
 */
export function openDataFile(index: NativeAnnIndex, dbPath: string, header: AnnHeader): void {
  const path = dataPath(dbPath, header);
  const checkSize = (file: string): void => {
    if (header.file_bytes !== undefined && statSync(file).size !== header.file_bytes) {
      throw new Error(`${header.file} is not the size its header recorded`);
    }
  };
  const copy = `${path}.${uniqueSuffix()}.tmp`;
  try {
    copyFileSync(path, copy, constants.COPYFILE_FICLONE);
  } catch {
    rmSync(copy, { force: true });
    checkSize(path);
    index.load(path);
    return;
  }
  try {
    checkSize(copy);
    index.view(copy);
  } finally {
    rmSync(copy, { force: true });
  }
}

/**
 * What is wrong with the saved files `header` names (empty: nothing found), reading them whole: the data
 * file's size and digest, the vectors file's digest and structure. For `grk doctor`; searches check sizes only.
 */
export function damagedAnnFiles(dbPath: string, header: AnnHeader): string[] {
  const problems: string[] = [];
  const data = dataPath(dbPath, header);
  if (!existsSync(data)) problems.push(`its data file ${header.file} is missing`);
  else if (header.file_bytes !== undefined && statSync(data).size !== header.file_bytes) {
    problems.push(`its data file ${header.file} is ${statSync(data).size} bytes, not the ${header.file_bytes} it was saved with (truncated or replaced?)`);
  } else if (header.file_sha256 !== undefined && fileDigest(data) !== header.file_sha256) {
    problems.push(`its data file ${header.file} does not hold the bytes it was saved with (overwritten?)`);
  }
  const vectors = vectorsPath(dbPath, header);
  if (vectors !== undefined && AnnVectors.exists(vectors, header.settings.dimensions, header.count)) {
    if (header.vectors_sha256 !== undefined ? vectorsFileDigest(vectors) !== header.vectors_sha256 : !opensWhole(vectors, header)) {
      problems.push(`its re-rank vectors file ${header.vectors} does not hold the vectors it was saved with (overwritten?)`);
    }
  }
  return problems;
}

/** Whether every vector of the file reads back as a stored one (for a file saved without a digest). */
function opensWhole(path: string, header: AnnHeader): boolean {
  const file = AnnVectors.open(path, header.settings.dimensions, header.count);
  if (file === undefined) return false;
  try {
    let whole = true;
    file.forEach((_rowid, unit) => {
      if (!isStoredVector(unit)) whole = false;
    });
    return whole;
  } catch {
    return false;
  } finally {
    file.close();
  }
}

/** Data and vectors files of this collection other than `keep` (older states, a killed save's temp files). */
function removeStaleDataFiles(dbPath: string, keep: readonly string[]): void {
  const db = basename(dbPath);
  for (const name of readdirSync(dirname(dbPath))) {
    if (!isDerivedAnnFile(db, name) || keep.includes(name)) continue;
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
  for (const header of [headerPath(dbPath), legacyHeaderPath(dbPath)]) if (existsSync(header)) unlinkSync(header);
  removeStaleDataFiles(dbPath, []);
}
