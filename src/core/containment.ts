/**
 * Path containment: a source path is accepted only if it stays under the base
 * directory both lexically (as written) and after the filesystem resolved every
 * symlink. Verification and ingest both go through here before reading a byte.
 *
 * Relative inputs are resolved against the process working directory, the way
 * `fs.realpath` itself would resolve them.
 */

import { lstatSync, promises as fsp, realpathSync } from "node:fs";
import path from "node:path";
import { GroundkitError } from "./errors.js";

/**
 * Whether `child` is `parent` itself or lies under it. Pure path arithmetic on
 * absolute, already-resolved paths: no filesystem access. Guards against the
 * prefix trick (`/base2` is not under `/base`) and handles the root directory.
 *
 * @example
 *   isWithin("/srv/docs/a.md", "/srv/docs"); // true
 *   isWithin("/srv/docs2/a.md", "/srv/docs"); // false
 *   isWithin("/etc/passwd", "/"); // true
 */
export function isWithin(child: string, parent: string): boolean {
  if (!path.isAbsolute(child) || !path.isAbsolute(parent)) {
    throw new GroundkitError("INVALID_ARGUMENT", "isWithin expects absolute paths.", { child, parent });
  }
  const rel = path.relative(path.normalize(parent), path.normalize(child));
  if (rel === "") return true;
  // On Windows a different drive yields an absolute "relative" path.
  if (path.isAbsolute(rel)) return false;
  // Compare whole segments: a file named "..notes" inside parent is still inside.
  return rel !== ".." && !rel.startsWith(`..${path.sep}`);
}

/**
 * Turn a filesystem error raised while resolving or reading `subject` into a
 * GroundkitError from the catalogue (missing → SOURCE_NOT_FOUND, anything else
 * the OS refused → FILE_UNREADABLE). GroundkitErrors pass through unchanged.
 *
 * @example
 *   try { await readFile(p); } catch (err) { throw fsErrorToGroundkit(err, p); }
 */
export function fsErrorToGroundkit(err: unknown, subject: string): GroundkitError {
  if (err instanceof GroundkitError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  const detail = { path: subject, errno: typeof code === "string" ? code : undefined };
  switch (code) {
    case "ENOENT":
    case "ENOTDIR":
      return new GroundkitError("SOURCE_NOT_FOUND", `${subject} does not exist`, detail, { cause: err });
    case "EACCES":
    case "EPERM":
      return new GroundkitError("FILE_UNREADABLE", `${subject} cannot be read: permission denied`, detail, {
        cause: err,
      });
    case "ELOOP":
      return new GroundkitError(
        "FILE_UNREADABLE",
        `${subject} cannot be read: too many levels of symbolic links (a symlink loop)`,
        detail,
        { cause: err },
      );
    default: {
      const message = err instanceof Error ? err.message : String(err);
      const why = typeof code === "string" ? code : message;
      return new GroundkitError("FILE_UNREADABLE", `${subject} cannot be read (${why})`, detail, { cause: err });
    }
  }
}

/** Lexical step shared by both variants: absolute forms, refused before any fs access. */
function lexicalCheck(p: string, baseDir: string): { absPath: string; absBase: string } {
  if (p.includes("\0") || baseDir.includes("\0")) {
    throw new GroundkitError("INVALID_ARGUMENT", "A path may not contain a NUL character.", { path: p });
  }
  const absBase = path.resolve(baseDir);
  const absPath = path.resolve(p);
  if (!isWithin(absPath, absBase)) throw escapes(absPath, absBase);
  return { absPath, absBase };
}

function escapes(absPath: string, absBase: string): GroundkitError {
  return new GroundkitError(
    "PATH_ESCAPES_BASE",
    `${absPath} resolves outside the base directory ${absBase}`,
    { path: absPath, base: absBase },
  );
}

/** A missing path that is itself a symlink is a dangling link: say so. */
function notFound(err: unknown, absPath: string, isLink: boolean): GroundkitError {
  const mapped = fsErrorToGroundkit(err, absPath);
  if (mapped.code !== "SOURCE_NOT_FOUND" || !isLink) return mapped;
  return new GroundkitError(
    "SOURCE_NOT_FOUND",
    `${absPath} is a symlink whose target does not exist`,
    mapped.detail,
    { cause: err },
  );
}

function baseError(err: unknown, absBase: string): GroundkitError {
  const mapped = fsErrorToGroundkit(err, absBase);
  if (mapped.code !== "SOURCE_NOT_FOUND") return mapped;
  return new GroundkitError("SOURCE_NOT_FOUND", `The base directory ${absBase} does not exist`, mapped.detail, {
    cause: err,
  });
}

/**
 * Resolve `path` to its real path, requiring it to lie under the real path of
 * `baseDir` (or equal it). The lexical absolute path is checked first, so a
 * `..` escape is refused without touching the filesystem; then both the base
 * and the path are resolved through symlinks and checked again.
 *
 * Note: because the lexical check comes first, a path must be written under
 * the base as given (if the base is reached through a symlink, pass paths
 * through that same symlink).
 *
 * @throws GroundkitError PATH_ESCAPES_BASE (escape by `..` or symlink),
 *   SOURCE_NOT_FOUND (missing path or dangling symlink), FILE_UNREADABLE
 *   (EACCES, symlink loop, other OS refusals).
 * @example
 *   const real = await resolveContained("/srv/docs/guide.md", "/srv/docs");
 */
export async function resolveContained(p: string, baseDir: string): Promise<string> {
  const { absPath, absBase } = lexicalCheck(p, baseDir);
  let realBase: string;
  try {
    realBase = await fsp.realpath(absBase);
  } catch (err) {
    throw baseError(err, absBase);
  }
  let realPath: string;
  try {
    // The path as written, so `link/..` is resolved the way the OS would open it.
    realPath = await fsp.realpath(p);
  } catch (err) {
    const isLink = await fsp.lstat(absPath).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    throw notFound(err, absPath, isLink);
  }
  if (!isWithin(realPath, realBase)) throw escapes(absPath, absBase);
  return realPath;
}

/**
 * Synchronous twin of {@link resolveContained}, same checks and errors.
 *
 * @example
 *   const real = resolveContainedSync("docs/guide.md", process.cwd());
 */
export function resolveContainedSync(p: string, baseDir: string): string {
  const { absPath, absBase } = lexicalCheck(p, baseDir);
  let realBase: string;
  try {
    realBase = realpathSync.native(absBase);
  } catch (err) {
    throw baseError(err, absBase);
  }
  let realPath: string;
  try {
    realPath = realpathSync.native(p);
  } catch (err) {
    let isLink = false;
    try {
      isLink = lstatSync(absPath).isSymbolicLink();
    } catch {
      // Nothing there at all: a plain "does not exist".
    }
    throw notFound(err, absPath, isLink);
  }
  if (!isWithin(realPath, realBase)) throw escapes(absPath, absBase);
  return realPath;
}
