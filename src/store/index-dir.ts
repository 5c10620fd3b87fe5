/**
 * The index directory: checked, and created with its missing parents, one
 * level at a time. Not `mkdirSync(dir, { recursive: true })`: on a file system
 * that answers mkdir with ENOENT although the parent exists (/proc), Node's
 * recursive mkdir retries forever at 100% CPU. Every refusal is a typed
 * INDEX_DIR_UNUSABLE naming the path and the reason.
 */
import { accessSync, constants as fsConstants, mkdirSync, statSync, type Stats } from "node:fs";
import { dirname } from "node:path";
import { GroundkitError } from "../core/errors.js";

/** Why a file-system call failed, in words, from its errno code. */
function reasonOf(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  switch (code) {
    case "EACCES":
    case "EPERM":
      return "permission denied";
    case "EROFS":
      return "the file system is read-only";
    case "ENOSPC":
    case "EDQUOT":
      return "no space left on the device";
    case "ENOENT":
      return "the file system does not allow creating a directory there";
    case "ELOOP":
      return "too many levels of symbolic links";
    case "ENAMETOOLONG":
      return "the path is too long";
    default:
      return typeof code === "string" ? code : String(err);
  }
}

function kindOf(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isFIFO()) return "a FIFO";
  if (st.isSocket()) return "a socket";
  if (st.isCharacterDevice() || st.isBlockDevice()) return "a device";
  return "not a directory";
}

function unusable(dir: string, reason: string, cause?: unknown): GroundkitError {
  return new GroundkitError("INDEX_DIR_UNUSABLE", `The index directory ${dir} cannot be used: ${reason}.`, { index_dir: dir }, {
    cause,
  });
}

/**
 * Make sure `dir` (absolute) is a writable directory, creating it and its
 * missing parents (mode 0700). The walk up is bounded by the path's depth.
 *
 * @throws GroundkitError INDEX_DIR_UNUSABLE
 * @example
 *   ensureIndexDir("/home/ada/.groundkit");
 */
export function ensureIndexDir(dir: string): void {
  const missing: string[] = [];
  let at = dir;
  for (;;) {
    let st: Stats;
    try {
      st = statSync(at);
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const parent = dirname(at);
      // ENOTDIR: some ancestor is not a directory; the walk up finds and names it.
      if ((code === "ENOENT" || code === "ENOTDIR") && parent !== at) {
        missing.push(at);
        at = parent;
        continue;
      }
      throw unusable(dir, `${at}: ${reasonOf(err)}`, err);
    }
    if (!st.isDirectory()) throw unusable(dir, at === dir ? `it is ${kindOf(st)}` : `${at} is ${kindOf(st)}`);
    break;
  }
  for (const level of missing.reverse()) {
    try {
      mkdirSync(level, { mode: 0o700 });
    } catch (err) {
      // Another process may have made it meanwhile.
      if ((err as { code?: unknown }).code === "EEXIST" && isDirectory(level)) continue;
      throw unusable(dir, `creating ${level}: ${reasonOf(err)}`, err);
    }
  }
  try {
    accessSync(dir, fsConstants.W_OK | fsConstants.X_OK);
  } catch (err) {
    throw unusable(dir, reasonOf(err), err);
  }
}

/**
 * If `dir` exists it must be a directory (reading a collection from a regular
 * file named as the index dir is a mistake worth naming, not "not found").
 *
 * @throws GroundkitError INDEX_DIR_UNUSABLE
 */
export function checkIndexDirIfPresent(dir: string): void {
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    if (code === "ENOENT") return;
    if (code === "ENOTDIR") throw unusable(dir, "a parent of it is not a directory", err);
    throw unusable(dir, reasonOf(err), err);
  }
  if (!st.isDirectory()) throw unusable(dir, `it is ${kindOf(st)}`);
}

/**
 * What opening the collection file failed with: a directory that passes the
 * checks can still refuse files (/proc, a full or read-only mount), which is
 * INDEX_DIR_UNUSABLE; anything else is returned as it was.
 */
export function storeOpenError(dir: string, file: string, err: unknown): unknown {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_CANTOPEN" || code === "SQLITE_READONLY" || code === "SQLITE_FULL") {
    return unusable(dir, `${code} opening ${file}`, err);
  }
  return err;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
