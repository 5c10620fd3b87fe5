/**
 * A PostgreSQL role without privileges got `INTERNAL … This is a bug`, and
 * `grk collections` aborted when one schema was unreadable (issue 25 #17).
 * A permission the server refuses is STORE_PERMISSION_DENIED with the grants
 * to run (naming the role, never the password), and the listing reports the
 * unreadable collection and lists the others. A real server on 127.0.0.1
 * (test/support/postgres-server.ts) and a real role made in it.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PgPool } from "../src/store/postgres/pg-pool.js";
import { resolvePoolSettings } from "../src/store/postgres/connection-settings.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

const PASSWORD = "s3cret-reader-pw";
const store = { kind: "postgres" as const, url_env: "GRK_PERM_PG_URL", schema: "perm" };
let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
let readerEnv: Record<string, string>;

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_PERM_PG_URL = pg.url;
  for (const name of ["open", "closed", "usage-only"]) await (await PostgresStore.open(store, name, { create: true })).pool.close();
  const admin = await PgPool.create(resolvePoolSettings(store), "pg_catalog");
  try {
    await admin.query(`CREATE ROLE reader LOGIN PASSWORD '${PASSWORD}'`);
    await admin.query(`GRANT USAGE ON SCHEMA "perm.open" TO reader`);
    await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "perm.open" TO reader`);
    await admin.query(`GRANT USAGE ON SCHEMA "perm.usage-only" TO reader`);
  } finally {
    await admin.close();
  }
  work = tempDir("grk-pg-perm-");
  writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store }));
  const url = new URL(pg.url);
  url.username = "reader";
  url.password = PASSWORD;
  readerEnv = { GRK_PERM_PG_URL: url.toString() };
}, 120_000);
afterAll(async () => {
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

describe("a PostgreSQL role without privileges", () => {
  it("gets STORE_PERMISSION_DENIED with the grants to run, not INTERNAL", () => {
    for (const name of ["closed", "usage-only"]) {
      const res = grk(["status", "--collection", name, "--json", "--config", "pg.json"], { cwd: work.dir, env: readerEnv });
      expect(res.code).toBe(1);
      expect(res.stderr).not.toContain("INTERNAL");
      expect(res.stderr).toContain("STORE_PERMISSION_DENIED");
      expect(res.stderr).toContain(`GRANT USAGE, CREATE ON SCHEMA "perm.${name}" TO reader`);
      expect(res.stderr).not.toContain(PASSWORD);
    }
  });

  it("grk collections lists the readable collections and reports the unreadable one", () => {
    const json = grk(["collections", "--json", "--config", "pg.json"], { cwd: work.dir, env: readerEnv });
    expect(json.code, json.stderr).toBe(0);
    const out = JSON.parse(json.stdout) as { collections: Array<{ name: string; documents?: number; error?: { code: string; hint: string } }> };
    expect(out.collections.map((c) => c.name)).toEqual(["closed", "open", "usage-only"]);
    expect(out.collections[0]!.error?.code).toBe("STORE_PERMISSION_DENIED");
    expect(out.collections[1]!.documents).toBe(0);
    expect(out.collections[2]!.error?.code).toBe("STORE_PERMISSION_DENIED");
    expect(json.stdout).not.toContain(PASSWORD);

    const text = grk(["collections", "--config", "pg.json"], { cwd: work.dir, env: readerEnv });
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/^closed\tunreadable: STORE_PERMISSION_DENIED/m);
    expect(text.stdout).toMatch(/^open\t0 documents/m);
  });
});
