/**
 * Commands that act on every collection, and the clean-up after a failed first
 * ingest, go to the configured store: on a PostgreSQL store, a SQLite file
 * that happens to lie in the index dir is not a collection of it (issue 26:
 * `grk search --all-collections` and `grk update --all` listed the SQLite
 * files; the REST/MCP ingest tool's clean-up removed nothing on PostgreSQL).
 * A real server on 127.0.0.1 (test/support/postgres-server.ts).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listCollections } from "../src/collection/index.js";
import { grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { http, startTestServer } from "./service-fixtures.js";

const TOKEN = "boundary-token";
let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
const store = { kind: "postgres" as const, url_env: "GRK_BOUNDARY_PG_URL", schema: "boundary" };
let env: Record<string, string>;

beforeAll(async () => {
  pg = await startPostgres();
  work = tempDir("grk-pg-boundary-");
  env = { GRK_BOUNDARY_PG_URL: pg.url };
  process.env.GRK_BOUNDARY_PG_URL = pg.url;
  const docs = join(work.dir, "docs");
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, "harbour.md"), "# Harbour\n\nThe harbour pilot boards every ship at the outer buoy.\n");
  writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store }));
  // The same index dir holds a SQLite collection (ingested without the config file): not a PostgreSQL collection.
  const sqlite = grk(["ingest", "docs", "--collection", "onlysqlite", "--no-progress"], { cwd: work.dir });
  expect(sqlite.code, sqlite.stderr).toBe(0);
  const onPg = grk(["ingest", "docs", "--collection", "onpg", "--config", "pg.json", "--no-progress"], { cwd: work.dir, env });
  expect(onPg.code, onPg.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

describe("commands over every collection on a PostgreSQL store", () => {
  it("grk search --all-collections searches the PostgreSQL collections only", () => {
    const res = grk(["search", "harbour pilot", "--all-collections", "--json", "--config", "pg.json"], { cwd: work.dir, env });
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as { collections: string[]; results: Array<{ collection: string }> };
    expect(out.collections).toEqual(["onpg"]);
    expect(new Set(out.results.map((r) => r.collection))).toEqual(new Set(["onpg"]));
  });

  it("grk update --all updates the PostgreSQL collections only", () => {
    const res = grk(["update", "--all", "--json", "--no-progress", "--config", "pg.json"], { cwd: work.dir, env });
    expect(res.code, res.stderr).toBe(0);
    const out = JSON.parse(res.stdout) as Array<{ collection: string }> | { collections: Array<{ collection: string }> };
    const names = (Array.isArray(out) ? out : out.collections).map((r) => r.collection);
    expect(names).toEqual(["onpg"]);
  });

  it("the ingest tool removes a PostgreSQL collection its failed first ingest created", async () => {
    const server = await startTestServer(
      { indexDir: join(work.dir, ".groundkit"), allowedRoots: [join(work.dir, "docs")], settings: { store } },
      { token: TOKEN },
    );
    try {
      const res = await http(server, "POST", "/v1/collections/typo/ingest", {
        body: { inputs: ["http://127.0.0.1:9/page.html"] },
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(res.status, res.text).toBe(200);
      expect(res.json.failed).toEqual([expect.objectContaining({ code: "SSRF_BLOCKED" })]);
    } finally {
      await server.close();
    }
    expect(await listCollections({ indexDir: join(work.dir, ".groundkit"), store })).toEqual(["onpg"]);
  });
});

describe("issue 25 on a PostgreSQL store", () => {
  it("#15: an absolute path filter matches the absolute source, as on SQLite", () => {
    const docs = join(work.dir, "docs");
    for (const filter of [`path^=${docs}/`, `path=${docs}/**`]) {
      const res = grk(["search", "harbour pilot", "--json", "--collection", "onpg", "--config", "pg.json", "--filter", filter], { cwd: work.dir, env });
      expect(res.code, res.stderr).toBe(0);
      const out = JSON.parse(res.stdout) as { results: Array<{ citation: { source: string } }> };
      expect(out.results.map((r) => r.citation.source), filter).toEqual([join(docs, "harbour.md")]);
    }
  });

  it("#16: grk doctor on a PostgreSQL store checks its collections (ADR 0038), never 'No collections'", () => {
    const res = grk(["doctor", "--json", "--sample", "5", "--config", "pg.json"], { cwd: work.dir, env });
    expect(res.stderr).not.toContain("STORE_UNSUPPORTED");
    const out = JSON.parse(res.stdout) as { healthy: boolean; collections: Array<{ collection: string; checks: Array<{ name: string; status: string }> }> };
    expect(out.collections.map((c) => c.collection)).toEqual(["onpg"]);
    expect(out.collections[0]!.checks.map((c) => c.name)).toEqual(["chunks", "vectors", "vector-index", "embedding", "extractors", "snapshots", "history", "citations"]);
    expect(out.collections[0]!.checks.filter((c) => c.status === "problem")).toEqual([]);
    expect(res.code).toBe(0);
  });
});
