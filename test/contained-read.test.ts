/**
 * The guarded read, stage by stage: the containment check runs, then the path
 * is swapped, then the read opens. Both ways of proving the descriptor is the
 * checked file (Linux's /proc/self/fd and the portable re-stat) must refuse.
 * (Verification's readers get the same interleaving in verify-source-swap.test.ts.)
 */
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readContainedFile, type DescriptorCheck } from "../src/source/contained-read.js";
import { resolveContainedSync } from "../src/core/containment.js";
import { GroundkitError } from "../src/core/errors.js";
import { swapFolder, swapWorld, type SwapWorld } from "./support/swap-world.js";

let world: SwapWorld;
let base: string;
let outside: string;

beforeEach(() => {
  world = swapWorld("grk-contained-read-", ["a.md", "sub/b.md"]);
  ({ base, outside } = world);
});
afterEach(() => world.cleanup());

async function refusal(p: Promise<unknown>): Promise<GroundkitError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GroundkitError);
    return err as GroundkitError;
  }
  throw new Error("expected the read to be refused");
}

const checks: DescriptorCheck[] = process.platform === "linux" ? ["proc-fd", "restat"] : ["restat"];

describe.each(checks)("readContainedFile (descriptor check: %s)", (check) => {
  it("reads a contained file", async () => {
    const real = resolveContainedSync(join(base, "sub", "b.md"), base);
    expect((await readContainedFile(real, 100, "b.md", check)).toString()).toBe("inside");
  });

  it("refuses a file swapped for a symlink after the check", async () => {
    const real = resolveContainedSync(join(base, "a.md"), base);
    unlinkSync(real);
    symlinkSync(join(outside, "a.md"), real);
    const err = await refusal(readContainedFile(real, 100, "a.md", check));
    expect(err.code).toBe("PATH_ESCAPES_BASE");
    expect(err.message).toMatch(/^a\.md changed after its containment check/);
  });

  it("refuses a folder above the file swapped for a symlink after the check", async () => {
    const real = resolveContainedSync(join(base, "sub", "b.md"), base);
    swapFolder(world, "sub");
    const err = await refusal(readContainedFile(real, 100, "sub/b.md", check));
    expect(err.code).toBe("PATH_ESCAPES_BASE");
    expect(err.message).not.toContain(outside);
  });

  it("refuses a FIFO without blocking, and a file over the cap", async () => {
    const fifo = join(base, "pipe");
    execFileSync("mkfifo", [fifo]);
    expect((await refusal(readContainedFile(fifo, 100, "pipe", check))).message).toBe("pipe is not a regular file.");
    expect((await refusal(readContainedFile(join(base, "a.md"), 3, "a.md", check))).code).toBe("FILE_TOO_LARGE");
    rmSync(fifo);
    expect((await refusal(readContainedFile(fifo, 100, "pipe", check))).code).toBe("SOURCE_NOT_FOUND");
  });
});
