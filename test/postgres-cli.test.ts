/**
 * groundkit on a PostgreSQL store through its real surfaces, chosen only by the
 * config file's `store` section: `grk ingest`, `search` with filters, `verify`,
 * `status`, `collections`, a second writer refused with COLLECTION_BUSY while
 * another holds the advisory lock, `grk serve` (readyz names the store), and
 * a server that goes away answering STORE_UNAVAILABLE (CLI and REST), never a
 * hang. A real server on 127.0.0.1 (test/support/postgres-server.ts).
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { CLI, grk, grkAsync, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
const store = { kind: "postgres" as const, url_env: "GRK_CLI_PG_URL", schema: "cli" };
let env: Record<string, string>;

beforeAll(async () => {
  pg = await startPostgres();
  work = tempDir("grk-pg-cli-");
  // A password in the URL must never be printed (trust auth ignores it).
  env = { GRK_CLI_PG_URL: pg.url.replace("postgres@", "postgres:hunter2-secret@") };
  const docs = join(work.dir, "docs");
  mkdirSync(join(docs, "guides"), { recursive: true });
  writeFileSync(join(docs, "guides", "backup.md"), "---\ntags: [ops]\n---\n# Backups\n\nNightly snapshots are copied to object storage.\n");
  writeFileSync(join(docs, "guides", "tls.md"), "# Certificates\n\nTLS certificates renew thirty days before they expire.\n");
  writeFileSync(join(docs, "notes.txt"), "The on-call engineer restores snapshots from object storage.\n");
  writeFileSync(join(work.dir, "groundkit.config.json"), JSON.stringify({ store }));
});
afterAll(async () => {
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

const run = (args: string[]) => grk(args, { cwd: work.dir, env });

describe("grk on a PostgreSQL store", () => {
  it("ingests, searches with filters, verifies and reports status without showing the password", () => {
    const ingest = run(["ingest", "docs", "--json", "--no-progress"]);
    expect(ingest.code, ingest.stderr).toBe(0);
    const search = run(["search", "object storage snapshots", "--json", "--filter", "tag=ops"]);
    expect(search.code, search.stderr).toBe(0);
    const hits = JSON.parse(search.stdout) as { results: Array<{ citation: { source: string } }> };
    expect(hits.results.map((h) => h.citation.source)).toEqual([join(work.dir, "docs", "guides", "backup.md")]);
    writeFileSync(join(work.dir, "hits.json"), search.stdout);
    const verify = run(["verify", "hits.json", "--json"]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
    expect(JSON.parse(verify.stdout)).toMatchObject({ verdict: "verified" });
    const status = run(["status", "--json"]);
    expect(status.code, status.stderr).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({
      documents: 3,
      path: expect.stringContaining("postgres://127.0.0.1:"),
      vector_index: { kind: "exact", library: "postgresql", reason: expect.stringContaining("extension vector not available") },
    });
    expect(run(["status"]).stdout).toContain("vector index exact (postgresql): extension vector not available on this server");
    const list = run(["collections", "--json"]);
    expect(JSON.parse(list.stdout)).toMatchObject({ collections: [{ name: "default", documents: 3 }] });
    for (const r of [ingest, search, verify, status, list]) expect(r.stdout + r.stderr).not.toContain("hunter2");
  });

  it("copies a collection to SQLite and back, keeping its stored citations verified", () => {
    // hits.json holds the citations `grk search --json` printed (and `grk verify` verified) on PostgreSQL.
    writeFileSync(join(work.dir, "sqlite.json"), JSON.stringify({}));
    const toSqlite = run(["collections", "copy", "--from", "postgres:default", "--to", "sqlite:copied", "--json"]);
    expect(toSqlite.code, toSqlite.stderr).toBe(0);
    expect(JSON.parse(toSqlite.stdout)).toMatchObject({ documents: 3, chunks: 3, vectors: 0 });
    const onSqlite = run(["verify", "hits.json", "--json", "--config", "sqlite.json", "--collection", "copied"]);
    expect(onSqlite.code, onSqlite.stdout + onSqlite.stderr).toBe(0);
    expect(JSON.parse(onSqlite.stdout)).toMatchObject({ verdict: "verified" });

    const back = run(["collections", "copy", "--from", "sqlite:copied", "--to", "postgres:back", "--json"]);
    expect(back.code, back.stderr).toBe(0);
    const onPostgres = run(["verify", "hits.json", "--json", "--collection", "back"]);
    expect(onPostgres.code, onPostgres.stdout + onPostgres.stderr).toBe(0);
    expect(JSON.parse(onPostgres.stdout)).toMatchObject({ verdict: "verified" });
    // The copy ranks like the original, and a copy into a collection that has documents is refused.
    const a = JSON.parse(run(["search", "object storage", "--json"]).stdout) as { results: Array<{ chunk_id: string; score: number }> };
    const b = JSON.parse(run(["search", "object storage", "--json", "--collection", "back"]).stdout) as typeof a;
    expect(b.results.map((h) => [h.chunk_id, h.score])).toEqual(a.results.map((h) => [h.chunk_id, h.score]));
    const again = run(["collections", "copy", "--from", "sqlite:copied", "--to", "postgres:back"]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("error[INVALID_ARGUMENT]");
    expect(again.stderr).toContain("is not empty");
    expect(run(["collections", "delete", "back"]).code).toBe(0);
    expect(JSON.parse(run(["collections", "--json"]).stdout).collections.map((c: { name: string }) => c.name)).toEqual(["default"]);
  });

  it("refuses a second writer with COLLECTION_BUSY while another holds the collection's advisory lock", async () => {
    process.env.GRK_CLI_PG_URL = pg.url;
    const holder = await PostgresStore.open(store, "default", { create: false });
    try {
      let release!: () => void;
      let locked!: () => void;
      const isLocked = new Promise<void>((r) => (locked = r));
      const held = holder.withWriterLock({ collection: "default", operation: "ingest", timeoutMs: 5000 }, async () => {
        locked();
        await new Promise<void>((r) => (release = r));
      });
      await isLocked;
      const second = await grkAsync(["ingest", "docs", "--lock-timeout", "0", "--no-progress"], { cwd: work.dir, killAfterMs: 60_000 });
      release();
      await held;
      expect(second.hung).toBe(false);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain("error[COLLECTION_BUSY]");
      expect(second.stderr).toContain(`pid ${process.pid}`);
      // Released: the next writer goes ahead.
      expect(run(["ingest", "docs", "--lock-timeout", "0", "--no-progress"]).code).toBe(0);
    } finally {
      await holder.close();
    }
  });

  it("serves from PostgreSQL; readyz reports the store, and a server that went away is STORE_UNAVAILABLE", async () => {
    const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CLI, "serve", "--port", "0"], {
      cwd: work.dir,
      env: { PATH: process.env.PATH ?? "", ...env },
    });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = "";
        child.stderr.on("data", (d: Buffer) => {
          stderr += d.toString();
          const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
          if (m) resolve(m[1]!);
        });
        child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
      });
      const ready = await fetch(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: "ready", store: { kind: "postgres", ok: true } });
      const search = await fetch(`${url}/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "certificates", top_k: 3 }),
      });
      expect(search.status).toBe(200);
      expect(((await search.json()) as { results: unknown[] }).results.length).toBeGreaterThan(0);

      await pg.stop();
      const down = await fetch(`${url}/readyz`);
      expect(down.status).toBe(503);
      const body = (await down.json()) as { store: { ok: boolean; reason: string } };
      expect(body.store.ok).toBe(false);
      expect(JSON.stringify(body)).not.toContain("hunter2");
      const failed = await fetch(`${url}/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "certificates" }),
      });
      expect(failed.status).toBe(503);
      expect(((await failed.json()) as { error: { code: string } }).error.code).toBe("STORE_UNAVAILABLE");
      const cli = run(["search", "certificates"]);
      expect(cli.code).toBe(1);
      expect(cli.stderr).toContain("error[STORE_UNAVAILABLE]");
      expect(cli.stderr).not.toContain("hunter2");
    } finally {
      child.kill("SIGKILL");
    }
  });
});
