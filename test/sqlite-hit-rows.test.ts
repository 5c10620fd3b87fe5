/**
 * A SQLite search never serves a hit's row as it was before a commit:
 * SQLite reuses the row id of a deleted last chunk, and a move rewrites a
 * document's source in place. When the store kept hit rows between searches
 * (ADR 0039, until its amendment), each case below failed if the cache's
 * scope missed the kind of commit it makes (a constant scope failed the
 * first, a scope without `data_version` the second); the store now reads
 * the rows every time, and these keep any future cache to the same rule.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { grk, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
beforeAll(() => {
  work = tempDir("grk-hit-rows-");
});
afterAll(() => work.cleanup());

describe("SQLite hit rows held between searches", () => {
  it("a new chunk under a reused row id is read anew after a commit on the same connection", async () => {
    const docs = join(work.dir, "same");
    mkdirSync(docs);
    writeFileSync(join(docs, "a.md"), "# A\n\nThe alpha apple orchard blooms in spring.\n");
    const col = await openCollection({ indexDir: join(work.dir, "idx-same"), collection: "default", create: true });
    try {
      await col.ingest([docs]);
      const [first] = await col.search("alpha apple", { topK: 1 });
      expect(first!.text).toContain("alpha apple");
      // a.md's chunk is the last row: removing it frees its row id, and b.md's chunk, ingested next, takes it.
      rmSync(join(docs, "a.md"));
      await col.ingest([docs]);
      writeFileSync(join(docs, "b.md"), "# B\n\nThe alpha beta banana grove ripens in autumn.\n");
      await col.ingest([docs]);
      const [hit] = await col.search("alpha", { topK: 1 });
      expect(hit!.text).toContain("beta banana");
      expect(hit!.citation.source).toBe(join(docs, "b.md"));
      expect(hit!.text).not.toContain("apple");
    } finally {
      await col.close();
    }
  });

  it("a move committed by another process is seen by a collection that held the moved rows", async () => {
    const docs = join(work.dir, "other");
    mkdirSync(join(docs, "old"), { recursive: true });
    writeFileSync(join(docs, "old", "keeper.md"), "# Keeper\n\nThe lighthouse keeper trims the wick at dusk.\n");
    writeFileSync(join(docs, "other.md"), "# Other\n\nNothing about lamps here.\n");
    expect(grk(["ingest", docs], { cwd: work.dir }).code).toBe(0);
    const col = await openCollection({ indexDir: join(work.dir, ".groundkit"), collection: "default" });
    try {
      const [before] = await col.search("lighthouse keeper wick", { topK: 1 });
      expect(before!.citation.source).toBe(join(docs, "old", "keeper.md"));
      mkdirSync(join(docs, "new"));
      renameSync(join(docs, "old", "keeper.md"), join(docs, "new", "keeper.md"));
      // Another process, another connection: the move rewrites the document row in place (its chunks keep their row ids).
      const moved = grk(["ingest", docs], { cwd: work.dir });
      expect(moved.stdout).toMatch(/moved 1/);
      const [after] = await col.search("lighthouse keeper wick", { topK: 1 });
      expect(after!.citation.source).toBe(join(docs, "new", "keeper.md"));
      expect(after!.document_id).toBe(before!.document_id);
    } finally {
      await col.close();
    }
  });
});
