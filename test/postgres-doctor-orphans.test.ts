/**
 * `grk doctor --repair` on a PostgreSQL store deletes chunks that belong to no
 * document, and BM25 stays exact: their postings go, N and the summed length
 * drop by what was removed, and searches rank the rest as before. Orphans are
 * made the only way a healthy store can get them: a document row deleted with
 * the foreign key's cascade and the triggers off (`session_replication_role =
 * replica`, what a restore without constraints or a hand edit does).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

const URL_ENV = "GRK_TEST_PG_DOCTOR_URL";
const pgStore = { kind: "postgres" as const, url_env: URL_ENV, schema: "orph" };

let server: TestPostgres;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  server = await startPostgres();
  process.env[URL_ENV] = server.url;
  work = tempDir("grk-pg-doctor-");
  writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store: pgStore }));
}, 120_000);

afterAll(async () => {
  delete process.env[URL_ENV];
  work?.cleanup();
  await server?.stop();
});

interface DoctorReport {
  healthy: boolean;
  collections: Array<{ checks: Array<{ name: string; status: string; problems: Array<{ message: string }> }>; repairs: Array<{ check: string; did: string }> }>;
}

describe("grk doctor --repair on PostgreSQL", () => {
  it("deletes chunks of no document, with their postings, and keeps BM25's statistics exact", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "keep.md"), "# Harbour\n\nThe lighthouse keeper logs every passing ship.\n");
    writeFileSync(join(docs, "also.md"), "# Orchard\n\nApple trees bloom early near the lighthouse.\n");
    writeFileSync(join(docs, "gone.md"), "# Quarry\n\nGranite blocks from the zanzibarquarry fed the lighthouse walls.\n\n".repeat(3));
    const opts: OpenCollectionOptions = { indexDir: join(work.dir, "idx"), collection: "orphans", create: true, store: pgStore };
    const col = await openCollection(opts);
    await col.ingest([docs]);
    const before = await col.search("lighthouse", { topK: 10 });
    expect(before.map((h) => h.citation.source).sort()).toEqual([join(docs, "also.md"), join(docs, "gone.md"), join(docs, "keep.md")]);
    await col.close();

    const store = await PostgresStore.open(pgStore, "orphans", { create: false });
    const client = await store.pool.connect();
    let orphaned: number;
    try {
      await client.query("SET session_replication_role = replica");
      orphaned = Number((await client.query("SELECT count(*) AS n FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE d.source LIKE '%gone.md'")).rows[0]!.n);
      await client.query("DELETE FROM documents WHERE source LIKE '%gone.md'");
      await client.query("SET session_replication_role = origin");
    } finally {
      client.release();
    }
    expect(orphaned).toBeGreaterThan(0);

    const doctor = (...extra: string[]): { code: number; report: DoctorReport } => {
      const r = grk(["doctor", "--json", "--collection", "orphans", "--index-dir", opts.indexDir!, "--config", "pg.json", ...extra], {
        cwd: work.dir,
        env: { [URL_ENV]: server.url },
      });
      return { code: r.code, report: JSON.parse(r.stdout) as DoctorReport };
    };
    const found = doctor();
    expect(found.code).toBe(1);
    const chunks = found.report.collections[0]!.checks.find((c) => c.name === "chunks")!;
    expect(chunks.status).toBe("problem");
    expect(chunks.problems[0]!.message).toContain(`${orphaned} chunk(s) belong to no document`);

    const repaired = doctor("--repair");
    expect(repaired.report.collections[0]!.repairs).toContainEqual({ check: "chunks", did: `deleted ${orphaned} chunk(s) that belonged to no document` });
    const after = doctor();
    expect(after.code).toBe(0);
    expect(after.report.collections[0]!.checks.find((c) => c.name === "chunks")).toMatchObject({ status: "ok" });

    try {
      const left = async (sql: string) => Number((await store.pool.query(sql)).rows[0]!.n);
      expect(await left("SELECT count(*) AS n FROM chunks WHERE NOT EXISTS (SELECT 1 FROM documents d WHERE d.id = chunks.doc_id)")).toBe(0);
      expect(await left("SELECT count(*) AS n FROM bm25_postings x WHERE NOT EXISTS (SELECT 1 FROM chunks c WHERE c.id = x.chunk)")).toBe(0);
      // N and the summed length are those of the chunks that remain.
      const stats = (await store.pool.query<{ docs: string; total_len: string }>("SELECT docs, total_len FROM bm25_stats WHERE id = 1")).rows[0]!;
      const rows = (await store.pool.query<{ n: string; len: string }>("SELECT count(*) AS n, coalesce(sum(dl), 0) AS len FROM chunks")).rows[0]!;
      expect(Number(stats.docs)).toBe(Number(rows.n));
      expect(Number(stats.total_len)).toBe(Number(rows.len));
    } finally {
      await store.close();
    }

    const reopened = await openCollection({ ...opts, create: false });
    try {
      expect(await reopened.search("zanzibarquarry", { topK: 10 })).toEqual([]);
      const hits = await reopened.search("lighthouse", { topK: 10 });
      expect(hits.map((h) => h.citation.source).sort()).toEqual([join(docs, "also.md"), join(docs, "keep.md")]);
      for (const h of hits) expect(h.score).toBeGreaterThan(0);
    } finally {
      await reopened.close();
    }
  }, 180_000);
});
