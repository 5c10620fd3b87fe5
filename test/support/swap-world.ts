/**
 * A base folder and an outside folder with the same layout, for tests that
 * swap a path under the base for a symlink to its outside twin.
 */
import { mkdirSync, realpathSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "./cli.js";

export interface SwapWorld {
  base: string;
  outside: string;
  cleanup: () => void;
}

/** `files` (relative paths) are written under base/ as "inside" and under outside/ as "OUTSIDE". */
export function swapWorld(prefix: string, files: string[]): SwapWorld {
  const work = tempDir(prefix);
  const root = realpathSync(work.dir);
  const world = { base: join(root, "base"), outside: join(root, "outside"), cleanup: work.cleanup };
  for (const file of files) {
    for (const [dir, text] of [[world.base, "inside"], [world.outside, "OUTSIDE"]] as const) {
      mkdirSync(join(dir, file, ".."), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
  }
  return world;
}

/** Swap base/`folder` for a symlink to outside/`folder`, the original parked (hidden) under base. */
export function swapFolder(world: SwapWorld, folder: string): void {
  renameSync(join(world.base, folder), join(world.base, `.parked-${folder}`));
  symlinkSync(join(world.outside, folder), join(world.base, folder));
}
