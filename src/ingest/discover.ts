/**
 * File discovery for folder ingestion: a deterministic, streaming walk that
 * applies hidden-name, node_modules, .gitignore and include/exclude rules, and
 * keeps every followed symlink inside the base directory.
 */

import { accessSync, constants as fsConstants, promises as fsp, statSync, type Dirent } from "node:fs";
import path from "node:path";
import ignore, { type Ignore } from "ignore";
import { readContainedFile } from "../source/contained-read.js";
import { fsErrorToGroundkit, resolveContained } from "../core/containment.js";
import { GroundkitError } from "../core/errors.js";
import { compileGlob, type GlobMatcher } from "../core/glob.js";
import { skippedFileReason, skippedFolderReason } from "./code/skip-rules.js";

/** Options for {@link discoverFiles}. */
export interface DiscoverOptions {
  /** Containment root (absolute). Symlinks whose real path leaves it are refused. */
  baseDir: string;
  /**
   * Globs (core/glob.ts syntax); one without a `/` matches a file's name at any depth, as in .gitignore,
   * one with a `/` (a leading one is dropped) matches relPath; empty/undefined = everything.
   */
  include?: string[];
  /** Globs, read as `include` reads them; a matching folder is not descended into. */
  exclude?: string[];
  /**
   * If given, only files ending in one of these lowercase extensions (".md", ".pdf", ...)
   * are yielded as files; others are reported as unsupported. An empty array supports nothing.
   */
  extensions?: string[];
  /** With `extensions`: whole file names (lowercase) supported whatever their extension (`dockerfile`, `.env.example`). */
  names?: string[];
}

/** One thing the walk found: a file to ingest, an unsupported file, or a refusal. */
export type DiscoveredEntry =
  | {
      kind: "file";
      /** Absolute, as walked (not realpath). */
      path: string;
      realPath: string;
      /** POSIX separators, relative to the walked root. */
      relPath: string;
      size: number;
      mtimeMs: number;
    }
  | { kind: "unsupported"; path: string; relPath: string }
  /** Left out by default (a lockfile, vendored code, build output, a minified file), with the reason. */
  | { kind: "skipped"; path: string; relPath: string; reason: string }
  | { kind: "refused"; path: string; relPath: string; error: GroundkitError };

/** A .gitignore's rules and the folder (relative to the root, "" for the root) they apply under. */
interface IgnoreScope {
  prefix: string;
  rules: Ignore;
}

interface DirFrame {
  absPath: string;
  realPath: string;
  relPath: string;
  scopes: readonly IgnoreScope[];
}

interface WalkContext {
  baseDir: string;
  /** Real paths of folders already walked: breaks symlink loops and avoids walking a folder twice. */
  visited: Set<string>;
  selects: (relPath: string) => boolean;
  prunesDir: (relPath: string) => boolean;
  supported: (name: string) => boolean;
  /** Hidden names that are still indexed (`.env.example`): documentation of configuration, never a secret. */
  shownHidden: ReadonlySet<string>;
}

/**
 * Walk `root` (a folder, or a single file) and yield what ingestion should do
 * with each file, in a deterministic order: depth-first, entries of a folder
 * sorted by name in UTF-16 code-unit order. Entries are yielded as they are
 * found; only one folder's listing per level is held in memory.
 *
 * Silently skipped: names starting with "." (files and folders; a supported
 * `.env.example` is kept), paths ignored by the root's or a nested `.gitignore`,
 * paths failing include/exclude. Yielded as `skipped` with the reason (ingest/code/skip-rules.ts):
 * lockfiles, minified files by name, vendored folders (`node_modules`, `vendor`, …) and
 * build output folders beside a project manifest; the walked root itself is never skipped. Symlinks are followed only when their real path is inside
 * `baseDir` (else a `refused` PATH_ESCAPES_BASE entry); a dangling symlink is
 * refused with SOURCE_NOT_FOUND; unreadable files/folders are refused with
 * FILE_UNREADABLE and the walk goes on; so is a folder whose .gitignore cannot be
 * read (not a regular file, too large, escaping), naming that .gitignore.
 *
 * A single-file root was named explicitly, so hidden-name and .gitignore rules
 * do not apply to it; include/exclude and extensions do (relPath is its name).
 *
 * @throws GroundkitError when the root itself cannot be walked: PATH_ESCAPES_BASE,
 *   SOURCE_NOT_FOUND, FILE_UNREADABLE (unreadable root folder, or its .gitignore is not a
 *   regular file) or FILE_TOO_LARGE (its .gitignore is over {@link MAX_GITIGNORE_BYTES});
 *   INVALID_ARGUMENT for an include/exclude glob core/glob.ts refuses.
 * @example
 *   for await (const e of discoverFiles("/srv/docs", { baseDir: "/srv/docs", extensions: [".md"] })) {
 *     if (e.kind === "file") console.log(e.relPath, e.size);
 *   }
 */
export async function* discoverFiles(root: string, opts: DiscoverOptions): AsyncGenerator<DiscoveredEntry> {
  const baseDir = path.resolve(opts.baseDir);
  const absRoot = path.resolve(root);
  const realRoot = await resolveContained(absRoot, baseDir);
  const ctx = makeContext(baseDir, opts);
  let rootStat;
  try {
    rootStat = await fsp.stat(realRoot);
  } catch (err) {
    throw fsErrorToGroundkit(err, absRoot);
  }

  if (!rootStat.isDirectory()) {
    const relPath = path.basename(absRoot);
    if (!ctx.selects(relPath)) return;
    if (!rootStat.isFile() || !ctx.supported(relPath)) {
      yield { kind: "unsupported", path: absRoot, relPath };
      return;
    }
    yield fileEntry(absRoot, realRoot, relPath);
    return;
  }

  ctx.visited.add(realRoot);
  yield* walkDir(ctx, { absPath: absRoot, realPath: realRoot, relPath: "", scopes: [] }, true);
}

function makeContext(baseDir: string, opts: DiscoverOptions): WalkContext {
  const include = anyOf(opts.include);
  const exclude = anyOf(opts.exclude);
  const extensions = opts.extensions?.map((e) => {
    const lower = e.toLowerCase();
    return lower.startsWith(".") ? lower : `.${lower}`;
  });
  const names = new Set(opts.names?.map((n) => n.toLowerCase()));
  return {
    baseDir,
    visited: new Set(),
    shownHidden: new Set([...names].filter((n) => n.startsWith("."))),
    selects: (rel) => !(exclude?.(rel) ?? false) && (include?.(rel) ?? true),
    prunesDir: (rel) => exclude?.(rel) ?? false,
    // endsWith rather than extname so multi-part extensions (".tar.gz") work too.
    supported: (name) => {
      if (!extensions) return true;
      const lower = name.toLowerCase();
      if (names.has(lower)) return true;
      return extensions.some((ext) => lower.length > ext.length && lower.endsWith(ext));
    },
  };
}

/** One matcher for a list of globs (linear-time: a hostile --include cannot stall the walk); undefined for none. */
function anyOf(globs: readonly string[] | undefined): GlobMatcher | undefined {
  if (!globs?.length) return undefined;
  const matchers = globs.map(walkGlob);
  return (rel) => matchers.some((m) => m(rel));
}

/**
 * A glob as .gitignore reads one: without a `/` it matches the name at any
 * depth (`*.md` selects `guides/a.md` too); with one (or a leading `/`, which
 * is dropped) it matches the path from the walked folder.
 */
export function walkGlob(glob: string): GlobMatcher {
  const anchored = glob.startsWith("/") || glob.startsWith("!/");
  const pattern = anchored ? glob.replace("/", "") : glob;
  const matcher = compileGlob(pattern, { dot: false });
  if (anchored || pattern.includes("/")) return matcher;
  return (rel, meter) => matcher(rel.slice(rel.lastIndexOf("/") + 1), meter);
}

function byName(a: Dirent, b: Dirent): number {
  // Plain comparison is UTF-16 code-unit order, independent of locale.
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

async function* walkDir(ctx: WalkContext, dir: DirFrame, isRoot: boolean): AsyncGenerator<DiscoveredEntry> {
  let dirents: Dirent[];
  let scopes = dir.scopes;
  try {
    // Read through the real path: it is the one containment vetted.
    dirents = await fsp.readdir(dir.realPath, { withFileTypes: true });
    const rules = await readGitignore(ctx, dir, dirents);
    if (rules) scopes = [...scopes, { prefix: dir.relPath, rules }];
  } catch (err) {
    const error = fsErrorToGroundkit(err, dir.absPath);
    if (isRoot) throw error;
    yield { kind: "refused", path: dir.absPath, relPath: dir.relPath, error };
    return;
  }
  dirents.sort(byName);

  for (const dirent of dirents) {
    const name = dirent.name;
    if (name.startsWith(".") && !ctx.shownHidden.has(name.toLowerCase())) continue;
    const relPath = dir.relPath === "" ? name : `${dir.relPath}/${name}`;
    const absPath = path.join(dir.absPath, name);
    const candidate = path.join(dir.realPath, name);
    const isLink = dirent.isSymbolicLink();

    // A symlink's kind is its target's; a dangling or looping link counts as a file
    // so it reaches the containment check below and is reported.
    let kind: "dir" | "file" | "other";
    if (isLink) {
      kind = await fsp.stat(candidate).then(
        (s) => (s.isDirectory() ? "dir" : s.isFile() ? "file" : "other"),
        () => "file" as const,
      );
    } else {
      kind = dirent.isDirectory() ? "dir" : dirent.isFile() ? "file" : "other";
    }

    if (isIgnored(scopes, relPath, kind === "dir")) continue;
    if (kind === "dir" ? ctx.prunesDir(relPath) : !ctx.selects(relPath)) continue;
    const skipped = kind === "dir" ? skippedFolderReason(name, dir.realPath) : kind === "file" ? skippedFileReason(name) : undefined;
    if (skipped) {
      yield { kind: "skipped", path: absPath, relPath, reason: skipped };
      continue;
    }

    let realPath = candidate;
    if (isLink) {
      try {
        realPath = await resolveContained(absPath, ctx.baseDir);
      } catch (err) {
        yield { kind: "refused", path: absPath, relPath, error: fsErrorToGroundkit(err, absPath) };
        continue;
      }
    }

    if (kind === "dir") {
      if (ctx.visited.has(realPath)) continue;
      ctx.visited.add(realPath);
      yield* walkDir(ctx, { absPath, realPath, relPath, scopes }, false);
    } else if (kind === "other" || !ctx.supported(name)) {
      yield { kind: "unsupported", path: absPath, relPath };
    } else {
      yield fileEntry(absPath, realPath, relPath);
    }
  }
}

/** Largest .gitignore read; one this large is surely not a real ignore file. */
export const MAX_GITIGNORE_BYTES = 1024 * 1024;

/**
 * Load the folder's own .gitignore, if any, through the guarded read (a symlinked
 * one must stay inside the base; regular files only, size-capped, never blocking
 * on a FIFO). A folder whose .gitignore cannot be read is refused rather than
 * walked without its rules, which might list exactly what must not be indexed.
 */
async function readGitignore(ctx: WalkContext, dir: DirFrame, dirents: Dirent[]): Promise<Ignore | undefined> {
  const entry = dirents.find((d) => d.name === ".gitignore");
  if (!entry || entry.isDirectory()) return undefined;
  const label = path.join(dir.absPath, ".gitignore");
  const file = entry.isSymbolicLink() ? await resolveContained(label, ctx.baseDir) : path.join(dir.realPath, ".gitignore");
  const bytes = await readContainedFile(file, MAX_GITIGNORE_BYTES, label);
  return ignore().add(bytes.toString("utf8"));
}

/**
 * Git semantics across nested .gitignore files: the deepest file with a rule
 * that matches decides (a negation there re-includes); otherwise ask the parent.
 */
function isIgnored(scopes: readonly IgnoreScope[], relPath: string, isDir: boolean): boolean {
  for (let i = scopes.length - 1; i >= 0; i--) {
    const scope = scopes[i]!;
    const sub = scope.prefix === "" ? relPath : relPath.slice(scope.prefix.length + 1);
    const result = scope.rules.test(isDir ? `${sub}/` : sub);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}

/**
 * Synchronous calls: per file, thread-pool round trips cost far more than
 * stat and access themselves (see readContainedFile).
 */
function fileEntry(absPath: string, realPath: string, relPath: string): DiscoveredEntry {
  try {
    const stat = statSync(realPath);
    // stat needs no read permission on the file itself; check it so the refusal happens here.
    accessSync(realPath, fsConstants.R_OK);
    return { kind: "file", path: absPath, realPath, relPath, size: stat.size, mtimeMs: stat.mtimeMs };
  } catch (err) {
    return { kind: "refused", path: absPath, relPath, error: fsErrorToGroundkit(err, absPath) };
  }
}
