/**
 * Hits with equal scores come back in one order wherever the files live, on
 * real SQLite files and a real PostgreSQL server: ordered by text hash and
 * span (store/hit-order.ts), not by chunk id, which derives from the absolute
 * path. Before, `grk eval` read different figures in another checkout, and a
 * `--beir` run (documents under a fresh temporary folder) moved run to run.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_TIE_PG_URL = pg.url;
  work = tempDir("grk-tie-");
});
afterAll(async () => {
  await pg?.stop();
  work?.cleanup();
});

let n = 0;
/**
 * Eighteen files whose BM25 scores for "zebra" are equal (one occurrence, two words each) under
 * `folder`, ingested into a fresh collection: the texts of the hits, in the order returned.
 */
async function tiedHits(store: "sqlite" | "postgres", folder: string): Promise<string[]> {
  const docs = join(work.dir, folder);
  mkdirSync(docs, { recursive: true });
  for (let i = 0; i < 12; i++) writeFileSync(join(docs, `note-${i}.txt`), `zebra word${String.fromCharCode(97 + i)}\n`);
  // Copies of one text: only their paths tell them apart.
  for (let i = 0; i < 6; i++) writeFileSync(join(docs, `copy-${i}.txt`), "zebra copied\n");
  const opts: OpenCollectionOptions = { indexDir: join(work.dir, `idx-${++n}`), collection: `tie${n}`, create: true };
  if (store === "postgres") opts.store = { kind: "postgres", url_env: "GRK_TIE_PG_URL", schema: "tie" };
  const col = await openCollection(opts);
  try {
    await col.ingest([docs]);
    const hits = await col.search("zebra", { topK: 18 });
    expect(hits).toHaveLength(18);
    expect(new Set(hits.map((h) => h.score)).size).toBe(1);
    return hits.map((h) => `${basename(h.citation.source)}: ${h.text}`);
  } finally {
    await col.close();
  }
}

for (const store of ["sqlite", "postgres"] as const) {
  describe(`equal scores (${store})`, () => {
    it("come back in the same order from another folder", async () => {
      const here = await tiedHits(store, `${store}-checkout-a/corpus`);
      expect(await tiedHits(store, `${store}-elsewhere/b/corpus`)).toEqual(here);
      expect(await tiedHits(store, `${store}-third`)).toEqual(here);
    });
  });
}

it("both stores order equal scores alike", async () => {
  expect(await tiedHits("postgres", "parity-pg")).toEqual(await tiedHits("sqlite", "parity-sqlite"));
});
