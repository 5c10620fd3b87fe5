/**
 * groundkit's per-user cache directory and an atomic file write into it.
 * `GROUNDKIT_CACHE_DIR` overrides; else `$XDG_CACHE_HOME/groundkit`; else
 * `~/.cache/groundkit`. Everything here is derived data: deleting it is safe.
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

/** The cache directory for this environment (not created). */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const own = env["GROUNDKIT_CACHE_DIR"];
  if (own !== undefined && own !== "") return resolve(own);
  const xdg = env["XDG_CACHE_HOME"];
  // XDG says a relative value is invalid and must be ignored.
  if (xdg !== undefined && xdg.startsWith("/")) return join(xdg, "groundkit");
  return join(homedir(), ".cache", "groundkit");
}

/**
 * Write `bytes` to `path` so that readers see either no file or the whole
 * file: write a sibling temp file, then rename over the target.
 */
export function writeFileAtomic(path: string, bytes: Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(tmp, bytes, { mode: 0o644 });
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
