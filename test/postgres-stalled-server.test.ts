/**
 * A stalled database (its backends under SIGSTOP: the connections stay open
 * but nothing answers) froze the whole server, `/healthz` included (issue 25
 * #10). With the async pool the event loop stays free: `/healthz` answers,
 * `/readyz` reports the store not ready (its ping is bounded), while a search
 * waits on the stalled database. A real server on 127.0.0.1
 * (test/support/postgres-server.ts); every stopped backend is continued in a
 * finally.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolvePoolSettings } from "../src/store/postgres/connection-settings.js";
import { PgPool } from "../src/store/postgres/pg-pool.js";
import { grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { http, startTestServer, type HttpResult, type TestServer } from "./service-fixtures.js";
import { within } from "./support/within.js";

const store = { kind: "postgres" as const, url_env: "GRK_STALL_PG_URL", schema: "stall" };
/** Generous client bound: separates "answers" from "frozen" (the issue saw 18-49 s), not a timing claim. */
const CLIENT_WAIT_MS = 5_000;
let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_STALL_PG_URL = pg.url;
  work = tempDir("grk-pg-stall-");
  const docs = join(work.dir, "docs");
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, "harbour.md"), "# Harbour\n\nThe harbour pilot boards every ship at the outer buoy.\n");
  writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store }));
  const res = grk(["ingest", "docs", "--config", "pg.json", "--no-progress"], { cwd: work.dir, env: { GRK_STALL_PG_URL: pg.url } });
  expect(res.code, res.stderr).toBe(0);
}, 120_000);
afterAll(async () => {
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

/** The pids of the server processes serving groundkit's connections (not the asking one). */
async function groundkitBackends(): Promise<number[]> {
  const admin = await PgPool.create(resolvePoolSettings({ ...store, pool_max: 2 }), "pg_catalog");
  try {
    const rows = await admin.query<{ pid: number }>(
      "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
    );
    return rows.rows.map((r) => r.pid);
  } finally {
    await admin.close();
  }
}

describe("a stalled PostgreSQL database", () => {
  it("leaves /healthz answering and /readyz reporting not ready", async () => {
    const server: TestServer = await startTestServer({ indexDir: join(work.dir, ".groundkit"), settings: { store } });
    const stopped: number[] = [];
    try {
      // Warm both pools (searches' and the readiness probe's) so their connections exist to be stalled.
      const warm = await http(server, "POST", "/v1/search", { body: { query: "harbour pilot" } });
      expect(warm.status, warm.text).toBe(200);
      expect((await http(server, "GET", "/readyz")).status).toBe(200);
      const pids = await groundkitBackends();
      expect(pids.length).toBeGreaterThan(0);
      for (const pid of pids) {
        process.kill(pid, "SIGSTOP");
        stopped.push(pid);
      }
      // A search now waits on the stalled database; the server must not wait with it.
      const pending = http(server, "POST", "/v1/search", { body: { query: "outer buoy" } }).catch(() => undefined);
      const health = await within(http(server, "GET", "/healthz"), CLIENT_WAIT_MS);
      expect(health).not.toBe("no answer");
      expect((health as HttpResult).status).toBe(200);
      const ready = await within(http(server, "GET", "/readyz"), CLIENT_WAIT_MS);
      expect(ready).not.toBe("no answer");
      expect((ready as HttpResult).status).toBe(503);
      expect((ready as HttpResult).json.store).toMatchObject({ kind: "postgres", ok: false });
      for (const pid of stopped.splice(0)) process.kill(pid, "SIGCONT");
      await pending;
    } finally {
      for (const pid of stopped) process.kill(pid, "SIGCONT");
      await server.close();
    }
  }, 120_000);

  it("a connection that stopped answering fails the next statement at once instead of waiting again", async () => {
    // #18: after a timed-out statement, the ROLLBACK and unlock of the error path each waited out the bound again.
    const pool = await PgPool.create(resolvePoolSettings({ ...store, pool_max: 2, statement_timeout_ms: 100 }), "pg_catalog");
    const client = await pool.connect();
    const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
    process.kill(pid, "SIGSTOP");
    try {
      await expect(client.query("SELECT 1")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("did not answer") });
      await expect(client.query("ROLLBACK")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE", message: expect.stringContaining("stopped answering on this connection") });
    } finally {
      process.kill(pid, "SIGCONT");
      client.release(true);
      await pool.close();
    }
  }, 60_000);
});
