/**
 * Verification's source readers with a folder swapped for a symlink between
 * the containment check (done first, as verify.ts does) and the read: the
 * answer is unresolvable, never a comparison against the outside file.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readExtractedSource } from "../src/cite/read-extracted-source.js";
import { readTextSource } from "../src/cite/read-text-source.js";
import { ResolutionError } from "../src/cite/resolution-error.js";
import { resolveContained } from "../src/core/containment.js";
import type { Citation } from "../src/core/contracts.js";
import { getExtractorRegistry } from "../src/extract/registry.js";
import { swapFolder, swapWorld, type SwapWorld } from "./support/swap-world.js";

let world: SwapWorld;
let base: string;
let outside: string;

beforeEach(() => {
  world = swapWorld("grk-verify-swap-", ["sub/b.md"]);
  ({ base, outside } = world);
});
afterEach(() => world.cleanup());

async function resolution(p: Promise<unknown>): Promise<ResolutionError> {
  const outcome = await p.then(
    (read) => new Error(`the read returned ${JSON.stringify(read)}`),
    (err: unknown) => err,
  );
  expect(outcome).toBeInstanceOf(ResolutionError);
  return outcome as ResolutionError;
}

describe("verification's source readers, with a swap after the containment check", () => {
  it("a text source: unresolvable, never the outside text", async () => {
    const real = await resolveContained(join(base, "sub", "b.md"), base);
    swapFolder(world, "sub");
    const err = await resolution(readTextSource(real, "sub/b.md", 100));
    expect(err.verdict).toBe("unresolvable");
    expect(err.detail).toMatch(/changed after its containment check/);
  });

  it("an extracted source: unresolvable, never the outside text", async () => {
    writeFileSync(join(base, "sub", "p.html"), "<p>inside</p>");
    writeFileSync(join(outside, "sub", "p.html"), "<p>OUTSIDE</p>");
    const html = (await getExtractorRegistry()).get("html")!;
    const citation = { source: join(base, "sub", "p.html"), extractor: html.identity } as Citation;
    const real = await resolveContained(citation.source, base);
    swapFolder(world, "sub");
    const err = await resolution(readExtractedSource(citation, real, 1000));
    expect(err.detail).toMatch(/changed after its containment check/);
  });
});
