/**
 * A search running in this process while another process ingests: WAL and
 * busy_timeout keep both working, and readers never see a half-written document.
 */
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { grk, grkAsync, tempDir } from "./support/cli.js";
import { writeCorpus } from "./support/corpus.js";

let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-conc-");
  writeCorpus(join(work.dir, "docs"), 400, 1);
  expect(grk(["ingest", "docs"], { cwd: work.dir }).code).toBe(0);
  writeCorpus(join(work.dir, "docs"), 400, 2);
});
afterAll(() => work.cleanup());

describe("concurrent ingest and search", () => {
  it("answers searches from a consistent state while another process ingests", async () => {
    const ingest = grkAsync(["ingest", "docs", "--json"], { cwd: work.dir });
    const col = await openCollection({ indexDir: join(work.dir, ".groundkit") });
    let searches = 0;
    let done = false;
    void ingest.then(() => (done = true));
    try {
      while (!done) {
        const hits = await col.search("citation offset retrieval", { topK: 20 });
        for (const h of hits) {
          // A hit's chunk must belong to the version its document row says it is.
          const doc = h.text.match(/marker(\d+)x(\d)/);
          if (doc) expect(h.text).not.toMatch(new RegExp(`marker${doc[1]}x${3 - Number(doc[2])}`));
        }
        searches++;
        await new Promise((r) => setTimeout(r, 5));
      }
    } finally {
      await col.close();
    }
    const res = await ingest;
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout).indexed).toBe(400);
    expect(searches).toBeGreaterThan(3);
  });
});
