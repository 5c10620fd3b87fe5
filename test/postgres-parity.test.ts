/**
 * The same corpus in a SQLite and a PostgreSQL collection ranks the same: the
 * top 10 of every golden query (evals/) and of generated queries over a
 * generated corpus large enough that the SQLite engine flushes a segment,
 * with scores equal to 1e-9. Then, on PostgreSQL only through the library
 * API: every search mode with filters, verify, fetch, status, delete and
 * re-embed. A real server on 127.0.0.1 (test/support/postgres-server.ts).
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection, type OpenCollectionOptions } from "../src/collection/index.js";
import { closeEmbeddingProviders } from "../src/embed/binding.js";
import { tempDir } from "./support/cli.js";
import { mulberry32, writeCorpus } from "./support/corpus.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { expectSameRanking } from "./support/same-ranking.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
const store = { kind: "postgres" as const, url_env: "GRK_PARITY_PG_URL", schema: "parity" };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_PARITY_PG_URL = pg.url;
  work = tempDir("grk-pg-parity-");
});
afterAll(async () => {
  await closeEmbeddingProviders();
  await pg?.stop();
  work?.cleanup();
});

/** Ingest `input` into a SQLite and a PostgreSQL collection of the same name. */
async function both(name: string, input: string, extra: Partial<OpenCollectionOptions> = {}, chunkSize?: number): Promise<[Collection, Collection]> {
  const indexDir = join(work.dir, `idx-${name}`);
  const sqlite = await openCollection({ indexDir, collection: name, create: true, ...extra });
  const postgres = await openCollection({ indexDir: join(work.dir, `pg-${name}`), collection: name, create: true, store, ...extra });
  for (const col of [sqlite, postgres]) {
    const summary = await col.ingest([input], chunkSize ? { chunkSize, chunkOverlap: 40 } : {});
    expect(summary.failed).toEqual([]);
  }
  return [sqlite, postgres];
}

/** The same top 10 (test/support/same-ranking.ts) for every query. */
async function expectSameTop10(a: Collection, b: Collection, queries: string[]): Promise<void> {
  for (const q of queries) expectSameRanking(await a.retrieve(q, 10), await b.retrieve(q, 10), q);
}

describe("PostgreSQL store parity with SQLite", () => {
  it("ranks the golden corpus the same, top 10 and scores to 1e-9", async () => {
    const [sqlite, postgres] = await both("golden", join(process.cwd(), "evals", "corpus"));
    try {
      const queries = readFileSync(join(process.cwd(), "evals", "judgments.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.trim() !== "")
        .map((l) => (JSON.parse(l) as { query: string }).query);
      expect(queries.length).toBeGreaterThan(20);
      await expectSameTop10(sqlite, postgres, queries);
      expect(await postgres.status()).toMatchObject({ documents: (await sqlite.status()).documents, chunks: (await sqlite.status()).chunks });
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  });

  it("filters code chunks by language and symbol like SQLite (issue 27)", async () => {
    const dir = join(work.dir, "code");
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "src", "store.ts"), "export class Store {\n  search(q: string) { return q; }\n}\n\nexport function parseConfig(p: string) { return p; }\n");
    writeFileSync(join(dir, "loader.py"), "def parse_config(path):\n    return path\n");
    writeFileSync(join(dir, "notes.md"), "# Notes\n\nHow to parse the config and search the store.\n");
    const [sqlite, postgres] = await both("code", dir);
    try {
      const expected: Array<[string[], number]> = [[["lang=ts"], 1], [["lang=python"], 1], [["symbol=search"], 1], [["symbol=Store.search", "lang=typescript"], 1], [["symbol=parse_config"], 1], [["symbol=nothing"], 0]];
      for (const [filters, n] of expected) {
        const x = await sqlite.search("parse config search store", { topK: 10, filters });
        expect(x.length, filters.join(" ")).toBe(n);
        expectSameRanking(x, await postgres.search("parse config search store", { topK: 10, filters }), filters.join(" "));
      }
    } finally {
      sqlite.close();
      postgres.close();
    }
  });

  it("ranks a generated corpus the same after the SQLite engine flushed a segment, and after deletes", async () => {
    const dir = join(work.dir, "generated");
    writeCorpus(dir, 900);
    const [sqlite, postgres] = await both("generated", dir, {}, 260);
    try {
      // Past the SQLite engine's flush threshold (4096 pending documents): segments and pending both score.
      expect((await sqlite.status()).chunks).toBeGreaterThan(4096);
      const words = "index citation source verify chunk offset passage retrieval ranking query engine backup restore cluster replica latency vector lexical snapshot schema migration commit".split(" ");
      const rand = mulberry32(17);
      const queries = Array.from({ length: 40 }, () =>
        Array.from({ length: 1 + Math.floor(rand() * 4) }, () => words[Math.floor(rand() * words.length)]!).join(" "),
      );
      queries.push("marker7x1 marker8x1 citation", "section document");
      await expectSameTop10(sqlite, postgres, queries);
      // Deleting documents changes N, avgdl and df the same way on both.
      const victims = (await sqlite.retrieve("marker3x1 marker4x1 marker5x1", 3)).map((h) => h.chunk_id);
      for (const col of [sqlite, postgres]) {
        for (const chunkId of victims) {
          const chunk = await col.getChunk(chunkId);
          await col.deleteDocument(chunk.document_id);
        }
      }
      await expectSameTop10(sqlite, postgres, queries);
      for (const filters of [["path=part1/**"], ["path^=part2/"], ["class=text"], ["ext=md", "path=part3/doc3*.md"]]) {
        for (const q of queries.slice(0, 8)) {
          const x = await sqlite.search(q, { topK: 10, filters });
          expect(x.length).toBeGreaterThan(0);
          expectSameRanking(x, await postgres.search(q, { topK: 10, filters }), `${q} ${filters.join(" ")}`);
        }
      }
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }, 300_000);
});

describe("dense, hybrid and re-embedding on PostgreSQL", () => {
  it("answers every mode with filters like SQLite, verifies, fetches, deletes and re-embeds", async () => {
    const models = join(work.dir, "models");
    execFileSync(process.execPath, [join(process.cwd(), "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
    const docs = join(work.dir, "dense-docs");
    const files: Record<string, string> = {
      "guides/backup.md": "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n",
      "guides/tls.md": "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n",
      "notes/cache.md": "# Cache\n\nThe cache keeps rendered pages in memory and evicts the least recently used entries.\n",
      "notes/people.txt": "The on-call engineer answers pages within five minutes and restores snapshots.\n",
    };
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(join(docs, rel, ".."), { recursive: true });
      writeFileSync(join(docs, rel), text);
    }
    const embedding = { provider: "onnx" as const, model_dir: join(models, "tiny-embedder") };
    const sqlite = await openCollection({ indexDir: join(work.dir, "idx-dense"), collection: "dense", create: true, embedding });
    let postgres = await openCollection({ indexDir: join(work.dir, "pg-dense"), collection: "dense", create: true, embedding, store });
    try {
      for (const col of [sqlite, postgres]) expect((await col.ingest([docs], { dense: true })).failed).toEqual([]);
      expect((await postgres.status()).vectors).toBe((await sqlite.status()).vectors);
      for (const mode of ["bm25", "dense", "hybrid"] as const) {
        for (const filters of [[], ["path=notes/**"], ["ext=md"]]) {
          const x = await sqlite.search("snapshots restored object storage", { mode, filters });
          const y = await postgres.search("snapshots restored object storage", { mode, filters });
          expect(y.map((h) => h.chunk_id), `${mode} ${filters.join(" ")}`).toEqual(x.map((h) => h.chunk_id));
          // Cosine in float32 (sqlite-vec) and float8 over float32 inputs (SQL) agree to float32 rounding.
          for (let i = 0; i < x.length; i++) expect(Math.abs(y[i]!.score - x[i]!.score)).toBeLessThan(mode === "bm25" ? 1e-9 : 1e-5);
        }
      }
      const [hit] = await postgres.search("certificates renew", { mode: "hybrid", verify: true });
      expect(hit!.verification?.verdict).toBe("verified");
      expect((await postgres.verify(hit!.citation)).verdict).toBe("verified");
      expect((await postgres.getChunk(hit!.chunk_id)).verification.verdict).toBe("verified");

      const other = { provider: "onnx" as const, model_dir: join(models, "tiny-embedder"), pooling: "cls" as const };
      const before = (await postgres.status()).embedding;
      expect((await postgres.reembed(other)).vectors_written).toBe((await postgres.status()).chunks);
      expect((await postgres.status()).embedding).not.toEqual(before);
      await postgres.close();
      postgres = await openCollection({ indexDir: join(work.dir, "pg-dense"), collection: "dense", embedding: other, store });
      expect((await postgres.search("backups snapshots", { mode: "dense" })).length).toBeGreaterThan(0);

      // A copy back to SQLite keeps the vectors: dense search ranks alike there.
      const copy = await openCollection({ indexDir: join(work.dir, "idx-dense"), collection: "dense-copy", create: true, embedding: other });
      try {
        expect(await postgres.copyInto(copy)).toMatchObject({ documents: 4, vectors: (await postgres.status()).vectors });
        const x = await postgres.search("backups snapshots", { mode: "dense" });
        const y = await copy.search("backups snapshots", { mode: "dense" });
        expect(y.map((h) => h.chunk_id)).toEqual(x.map((h) => h.chunk_id));
      } finally {
        await copy.close();
      }

      expect(await postgres.deleteDocument(hit!.document_id)).toBe(true);
      expect((await postgres.search("certificates renew", { mode: "hybrid" })).map((h) => h.document_id)).not.toContain(hit!.document_id);
      expect((await postgres.status()).vectors).toBe((await postgres.status()).chunks);
    } finally {
      await sqlite.close();
      await postgres.close();
    }
  }, 120_000);
});
