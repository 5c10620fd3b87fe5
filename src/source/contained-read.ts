/**
 * The guarded read: a file whose real path was just checked for containment is
 * opened once, the open descriptor is proven to be that very file, and every
 * byte comes from that descriptor. Re-opening by path after the check would
 * follow whatever symlink was swapped in meanwhile (into the file's own name or
 * any folder above it) and read outside content.
 *
 * Ingest (sources and .gitignore files) and verification read through here.
 */
import { closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readlinkSync, readSync, realpathSync, type Stats } from "node:fs";
import { fsErrorToGroundkit } from "../core/containment.js";
import { GroundkitError } from "../core/errors.js";

/** How the open descriptor is proven to be the checked file. */
export type DescriptorCheck = "proc-fd" | "restat";

/**
 * Linux names every open descriptor's file in /proc/self/fd: the kernel's own
 * record of what was opened, immune to later swaps. Elsewhere, re-resolve after
 * the open and compare identities (see {@link checkByRestat}).
 */
const DEFAULT_CHECK: DescriptorCheck = process.platform === "linux" && existsSync("/proc/self/fd") ? "proc-fd" : "restat";

/** Windows has no O_NOFOLLOW; the descriptor check still runs there. */
const OPEN_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0);

/**
 * Read the file at `realPath` (a real path the caller has just checked for
 * containment: no symlink in it), refusing it by name when it is not a regular
 * file, is larger than `maxBytes`, or is no longer the file that was checked.
 *
 * O_NOFOLLOW refuses a symlink swapped into the final name; O_NONBLOCK keeps a
 * FIFO swapped in from blocking the open forever (fstat then refuses it); the
 * descriptor check catches a folder above the file swapped for a symlink.
 *
 * The system calls are synchronous on purpose: for the small files ingest and
 * verification read, going through the thread pool cost about 170 µs of round
 * trips per file against about 4 µs for the calls themselves (measured on the
 * bench corpus), and blocks the event loop no longer than the read itself.
 *
 * @throws GroundkitError PATH_ESCAPES_BASE (the path changed after its check),
 *   FILE_UNREADABLE (not a regular file, OS refusal), FILE_TOO_LARGE, SOURCE_NOT_FOUND.
 * @example
 *   const real = await resolveContained("/srv/docs/a.md", "/srv/docs");
 *   const bytes = await readContainedFile(real, 10 * 1024 * 1024, "/srv/docs/a.md");
 */
export async function readContainedFile(
  realPath: string,
  maxBytes: number,
  label = realPath,
  check: DescriptorCheck = DEFAULT_CHECK,
): Promise<Buffer> {
  const fd = openNoFollow(realPath, label);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new GroundkitError("FILE_UNREADABLE", `${label} is not a regular file.`);
    const same = check === "proc-fd" ? checkByProcFd(fd, realPath) : checkByRestat(st, realPath);
    if (!same) throw changed(label, realPath);
    return readCapped(fd, st.size, maxBytes, label);
  } catch (err) {
    throw fsErrorToGroundkit(err, label);
  } finally {
    closeSync(fd);
  }
}

function openNoFollow(realPath: string, label: string): number {
  try {
    return openSync(realPath, OPEN_FLAGS);
  } catch (err) {
    // ELOOP under O_NOFOLLOW: the checked name is now a symlink.
    if ((err as NodeJS.ErrnoException).code === "ELOOP") throw changed(label, realPath, err);
    throw fsErrorToGroundkit(err, label);
  }
}

function changed(label: string, realPath: string, cause?: unknown): GroundkitError {
  // The message does not say where the swapped-in link points: that would disclose outside paths.
  return new GroundkitError(
    "PATH_ESCAPES_BASE",
    `${label} changed after its containment check (a symlink was swapped into its path); refused without reading it.`,
    { path: realPath },
    cause === undefined ? undefined : { cause },
  );
}

/** The kernel's name for the descriptor; a file unlinked since the open keeps its last name plus " (deleted)". */
function checkByProcFd(fd: number, realPath: string): boolean {
  const opened = readlinkSync(`/proc/self/fd/${fd}`);
  return opened === realPath || opened === `${realPath} (deleted)`;
}

/**
 * Portable fallback: after the open, the name must still resolve to itself and
 * name the same inode as the descriptor. An attacker would have to swap a
 * folder between the open and the realpath and back before the lstat.
 */
function checkByRestat(st: Stats, realPath: string): boolean {
  if (realpathSync.native(realPath) !== realPath) return false;
  const now = lstatSync(realPath);
  return now.dev === st.dev && now.ino === st.ino;
}

function readCapped(fd: number, size: number, maxBytes: number, label: string): Buffer {
  if (size > maxBytes) {
    throw new GroundkitError("FILE_TOO_LARGE", `${label} is ${size} bytes, over the ${maxBytes}-byte cap.`);
  }
  // Read at most cap+1 bytes so a file that grows after fstat is still refused, never truncated.
  const buf = Buffer.allocUnsafe(Math.min(size, maxBytes) + 1);
  let filled = 0;
  for (;;) {
    const bytesRead = readSync(fd, buf, filled, buf.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
    if (filled === buf.length) break;
  }
  if (filled > maxBytes) {
    throw new GroundkitError("FILE_TOO_LARGE", `${label} grew past the ${maxBytes}-byte cap while being read.`);
  }
  return buf.subarray(0, filled);
}
