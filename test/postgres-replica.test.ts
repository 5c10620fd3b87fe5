/**
 * Read replicas (issue 26): a primary and a streaming replica made by
 * `pg_basebackup -R` from Debian's PostgreSQL binaries. A collection is
 * ingested on the primary; once the replica has replayed it (waited for by
 * LSN, never by time), the replica serves the same BM25 ranking and the same
 * chunks, its citations verify, reads fail over to the primary when a replica
 * cannot answer, and the lag report says how far behind each replica is.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { openCollection } from "../src/collection/index.js";
import { resolvePoolSettings } from "../src/store/postgres/connection-settings.js";
import { PgLexicalSearch } from "../src/store/postgres/lexical-search.js";
import { PgPool } from "../src/store/postgres/pg-pool.js";
import { parseStoreConfig } from "../src/store/store-config.js";
import { syncLexicalSegments } from "../src/store/postgres/lexical-segments.js";
import type { Queryable } from "../src/store/postgres/queryable.js";
import { ReadPools, type ReadTarget } from "../src/store/postgres/read-pools.js";
import { replicaLags } from "../src/store/postgres/replica-lag.js";
import { resolveReplicaSettings } from "../src/store/postgres/replica-settings.js";
import { grk, tempDir } from "./support/cli.js";
import { openPool, type TestPool } from "./support/pg-pool.js";
import { startPostgres, startReplica, type TestPostgres } from "./support/postgres-server.js";
import { http, startTestServer, type HttpResult } from "./service-fixtures.js";
import { within } from "./support/within.js";

let primary: TestPostgres;
let replica: TestPostgres;
let work: { dir: string; cleanup: () => void };
const pools: Array<{ url: string; pool: TestPool }> = [];
const store = { kind: "postgres" as const, url_env: "GRK_REPL_PRIMARY_URL", schema: "repl" };

beforeAll(async () => {
  primary = await startPostgres();
  replica = await startReplica(primary);
  process.env.GRK_REPL_PRIMARY_URL = primary.url;
  process.env.GRK_REPL_REPLICA_URL = replica.url;
  work = tempDir("grk-pg-replica-");
}, 120_000);
afterAll(async () => {
  for (const p of pools.splice(0)) await p.pool.end();
  await replica?.stop();
  await primary?.stop();
  work?.cleanup();
});

function pool(url: string, schema = "repl.docs"): TestPool {
  const p = openPool(url, schema, 2);
  pools.push({ url, pool: p });
  return p;
}

/** Stop the replica, closing this file's own pools to it first (their idle connections would die with it). */
async function stopReplica(): Promise<void> {
  for (const p of pools.filter((p) => p.url === replica.url)) {
    pools.splice(pools.indexOf(p), 1);
    await p.pool.end();
  }
  await replica.stop();
}

/** Wait until the replica has replayed everything the primary had written when called. */
async function waitForReplay(primaryQ: Queryable, replicaQ: Queryable): Promise<void> {
  const { lsn } = (await primaryQ.query("SELECT pg_current_wal_lsn()::text AS lsn")).rows[0] as { lsn: string };
  for (;;) {
    const { done } = (await replicaQ.query("SELECT pg_wal_lsn_diff(pg_last_wal_replay_lsn(), $1::pg_lsn) >= 0 AS done", [lsn])).rows[0] as { done: boolean };
    if (done) return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("PostgreSQL read replicas", () => {
  it("serve what the primary wrote once replayed, verify its citations, and report their lag", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "backup.md"), "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n");
    writeFileSync(join(docs, "tls.md"), "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n");
    const onPrimary = await openCollection({ indexDir: join(work.dir, "idx"), collection: "docs", create: true, store });
    try {
      expect((await onPrimary.ingest([docs])).failed).toEqual([]);
    } finally {
      await onPrimary.close();
    }
    const p = pool(primary.url);
    const r = pool(replica.url);
    const client = await p.connect();
    try {
      expect(await syncLexicalSegments(client, { flushTail: true })).toMatchObject({ built: "tail", segments: 1 });
    } finally {
      client.release();
    }
    await waitForReplay(p, r);

    // The replica serves the same ranking from the replicated segments, through the read chooser.
    const reads = new ReadPools({ name: "primary", target: "primary", q: p }, [{ name: "GRK_REPL_REPLICA_URL", target: "replica", q: r }]);
    const engine = new PgLexicalSearch();
    const terms = analyzeQuery("snapshots restored from object storage");
    const served: string[] = [];
    const onReplica = await reads.read(async (q, server) => {
      served.push(server.name);
      return engine.search(q, terms, 10);
    });
    expect(served).toEqual(["GRK_REPL_REPLICA_URL"]);
    expect(onReplica.length).toBeGreaterThan(0);
    expect(onReplica).toEqual(await new PgLexicalSearch().search(p, terms, 10));
    const inRecovery = (await r.query<{ standby: boolean }>("SELECT pg_is_in_recovery() AS standby")).rows[0]!.standby;
    expect(inRecovery).toBe(true);

    // A collection read from the replica's URL serves the chunks and verifies their citations against the sources.
    process.env.GRK_REPL_AS_PRIMARY_URL = replica.url;
    const readOnly = await openCollection({ indexDir: join(work.dir, "idx"), collection: "docs", store: { ...store, url_env: "GRK_REPL_AS_PRIMARY_URL" } });
    try {
      const [hit] = await readOnly.search("certificates renew", { verify: true });
      expect(hit?.citation.source).toContain("tls.md");
      expect(hit!.verification?.verdict).toBe("verified");
      expect((await readOnly.verify(hit!.citation)).verdict).toBe("verified");
      expect((await readOnly.status())).toMatchObject({ documents: 2 });
    } finally {
      await readOnly.close();
    }

    // The lag report: a standby that has replayed, a server that is no standby, one that does not answer.
    const lags = await replicaLags(p, [
      { name: "GRK_REPL_REPLICA_URL", target: "replica", q: r },
      { name: "NOT_A_STANDBY", target: "primary", q: p },
      { name: "GONE", target: "closed", q: { query: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" })) } },
    ]);
    expect(lags[0]).toMatchObject({ name: "GRK_REPL_REPLICA_URL", ok: true });
    expect(lags[0]!.replay_lag_bytes).toBeGreaterThanOrEqual(0);
    expect(lags[0]!.replay_lag_seconds).toBeGreaterThanOrEqual(0);
    expect(lags[1]).toMatchObject({ ok: false, reason: expect.stringContaining("not a streaming standby") });
    expect(lags[2]).toMatchObject({ ok: false, reason: expect.stringContaining("does not answer") });
  }, 180_000);

  it("never serves what the replica has not replayed, and serves it once replayed", async () => {
    const p = pool(primary.url);
    const r = pool(replica.url);
    await r.query("SELECT pg_wal_replay_pause()");
    const docs = join(work.dir, "more");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "glacier.md"), "# Archive\n\nGlacier archives keep the yearly exports for seven years.\n");
    const onPrimary = await openCollection({ indexDir: join(work.dir, "idx"), collection: "docs", store });
    try {
      expect((await onPrimary.ingest([docs])).failed).toEqual([]);
    } finally {
      await onPrimary.close();
    }
    const terms = analyzeQuery("glacier archives yearly exports");
    expect((await new PgLexicalSearch().search(p, terms, 10)).length).toBeGreaterThan(0);
    // Paused: the replica serves its older, whole state (no hit), and says it is behind.
    expect(await new PgLexicalSearch().search(r, terms, 10)).toEqual([]);
    const [behind] = await replicaLags(p, [{ name: "R", target: "replica", q: r }]);
    expect(behind!.replay_lag_bytes).toBeGreaterThan(0);
    await r.query("SELECT pg_wal_replay_resume()");
    await waitForReplay(p, r);
    expect(await new PgLexicalSearch().search(r, terms, 10)).toEqual(await new PgLexicalSearch().search(p, terms, 10));
  }, 120_000);

  it("fails a read over to the next server when a replica cannot answer, and resolves replica URLs from the environment only", async () => {
    const p = pool(primary.url);
    const gone: ReadTarget = {
      name: "GONE",
      target: "127.0.0.1:1/postgres",
      q: { query: () => Promise.reject(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ECONNREFUSED" })) },
    };
    let now = 0;
    const reads = new ReadPools({ name: "primary", target: "primary", q: p }, [gone], { now: () => now, retryAfterMs: 1000 });
    const answered: string[] = [];
    for (let i = 0; i < 2; i++) await reads.read(async (q, s) => (answered.push(s.name), q.query("SELECT 1")));
    // The first read tried the replica and answered from the primary; the second went to the primary, the replica passed over.
    expect(answered).toEqual(["GONE", "primary", "primary"]);
    expect(reads.passedOver()).toEqual([{ name: "GONE", reason: expect.stringContaining("ECONNREFUSED") }]);
    now = 1000;
    expect(reads.order().map((s) => s.name)).toEqual(["GONE", "primary"]);
    // A statement error is the caller's, not the server's: it is not retried elsewhere.
    await expect(reads.read((q) => q.query("SELECT * FROM no_such_table"))).rejects.toThrow(/no_such_table/);

    const settings = resolveReplicaSettings({ ...store, replicas: [{ url_env: "GRK_REPL_REPLICA_URL" }] });
    expect(settings.map((s) => [s.name, s.target])).toEqual([["GRK_REPL_REPLICA_URL", `127.0.0.1:${replica.port}/postgres`]]);
    expect(() => resolveReplicaSettings({ ...store, replicas: [{ url_env: "GRK_REPL_UNSET" }] })).toThrow(/GRK_REPL_UNSET is not set/);
    expect(() => resolveReplicaSettings({ ...store, replicas: [{ url_env: store.url_env }] })).toThrow(/primary's URL variable/);
  });

  it("passes over a replica that is not a standby, and takes replica URLs only from the environment", async () => {
    // A URL naming a server that is not in recovery (a promoted replica, a wrong variable) would serve a history of its own.
    process.env.GRK_REPL_NOT_A_STANDBY = primary.url;
    const stderr: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
    const col = await openCollection({ indexDir: join(work.dir, "idx"), collection: "docs", store: { ...store, replicas: [{ url_env: "GRK_REPL_NOT_A_STANDBY" }] } });
    try {
      const [hit] = await col.search("certificates renew");
      expect(hit?.citation.source).toContain("tls.md");
      expect(stderr.join("")).toContain("read replica GRK_REPL_NOT_A_STANDBY");
      expect(stderr.join("")).toContain("is not a streaming standby");
      const s = await col.status({ replicaLag: true });
      expect(s.replicas).toEqual([
        expect.objectContaining({ name: "GRK_REPL_NOT_A_STANDBY", ok: false, reason: expect.stringContaining("not a streaming standby"), passed_over: expect.stringContaining("not a streaming standby") }),
      ]);
    } finally {
      await col.close();
      spy.mockRestore();
    }
    // The config file names variables, never URLs: a URL (or any other key) in a replica entry is refused.
    expect(() => parseStoreConfig({ ...store, replicas: [{ url: replica.url }] })).toThrow(/store.*invalid.*(Unrecognized key|url_env)/is);
    expect(() => parseStoreConfig({ ...store, replicas: [{ url_env: "not a name" }] })).toThrow(/environment variable name/);
    expect(parseStoreConfig({ ...store, replicas: [{ url_env: "GRK_REPL_REPLICA_URL" }] })).toMatchObject({ replicas: [{ url_env: "GRK_REPL_REPLICA_URL" }] });
  });

  it("a held connection the server ends does not end the process: its next statement fails typed", async () => {
    // A read snapshot holds its replica connection between statements; a replica shut down then crashed the
    // process with an uncaught 'error' (pg-pool listens only on idle connections).
    const admin = pool(primary.url);
    const held = await PgPool.create(resolvePoolSettings({ ...store, pool_max: 2 }), "pg_catalog");
    try {
      const client = await held.connect();
      await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
      const pid = (await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
      await admin.query("SELECT pg_terminate_backend($1)", [pid]);
      while ((await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1", [pid])).rows.length > 0) await new Promise((r) => setTimeout(r, 20));
      // Let the socket's close reach the client while no statement is active on it.
      await new Promise((r) => setTimeout(r, 200));
      await expect(client.query("SELECT 1")).rejects.toMatchObject({ code: "STORE_UNAVAILABLE" });
      client.release();
    } finally {
      await held.close();
    }
  });

  // Last: it stops the replica.
  it("a collection naming the replica reads from it, writes to the primary, falls back when it is down, and reports its lag", async () => {
    const withReplica = { ...store, replicas: [{ url_env: "GRK_REPL_REPLICA_URL" }] };
    const indexDir = join(work.dir, "idx-served");
    const first = join(work.dir, "served-a");
    const later = join(work.dir, "served-b");
    mkdirSync(first, { recursive: true });
    mkdirSync(later, { recursive: true });
    writeFileSync(join(first, "backup.md"), "# Backups\n\nNightly snapshots are copied to object storage and restored with the restore command.\n");
    writeFileSync(join(first, "tls.md"), "# Certificates\n\nTLS certificates renew automatically thirty days before they expire.\n");
    const glacier = join(later, "glacier.md");
    writeFileSync(glacier, "# Archive\n\nGlacier archives keep the yearly exports for seven years; certificates are archived too.\n");
    const p = pool(primary.url, "repl.served");
    const r = pool(replica.url, "repl.served");
    const flushSegments = async (policy: { rebuild?: boolean }) => {
      const client = await p.connect();
      try {
        await syncLexicalSegments(client, { flushTail: true, ...policy });
      } finally {
        client.release();
      }
    };
    const stderr: string[] = [];
    const spy = vi.spyOn(process.stderr, "write").mockImplementation((chunk: string | Uint8Array) => (stderr.push(String(chunk)), true));
    const col = await openCollection({ indexDir, collection: "served", create: true, store: withReplica });
    try {
      // Writes go to the primary: the standby refuses every write, so this ingest would fail there.
      expect((await col.ingest([first])).failed).toEqual([]);
      await flushSegments({});
      await waitForReplay(p, r);
      const [hit] = await col.search("certificates renew", { verify: true });
      expect(hit?.citation.source).toContain("tls.md");
      expect(hit!.verification?.verdict).toBe("verified");
      expect((await col.getChunk(hit!.chunk_id)).verification.verdict).toBe("verified");
      expect((await col.verify(hit!.citation)).verdict).toBe("verified");
      const caughtUp = await col.status({ replicaLag: true });
      expect(caughtUp.documents).toBe(2);
      expect(caughtUp.replicas).toEqual([
        expect.objectContaining({ name: "GRK_REPL_REPLICA_URL", target: `127.0.0.1:${replica.port}/postgres`, ok: true, replay_lag_bytes: expect.any(Number), replay_lag_seconds: expect.any(Number) }),
      ]);

      // Replay paused: what the primary commits now is not served, nor counted, until the replica replays it.
      await r.query("SELECT pg_wal_replay_pause()");
      try {
        expect((await col.ingest([later])).failed).toEqual([]);
        // New segments (new identities) on the primary: the process's cached blocks are of segments it no longer has.
        await flushSegments({ rebuild: true });
        const glacierTerms = analyzeQuery("glacier archives yearly exports");
        expect((await new PgLexicalSearch().search(p, glacierTerms, 10)).length).toBeGreaterThan(0);
        expect(await col.search("glacier archives yearly exports")).toEqual([]);
        expect(await col.search("glacier archives yearly exports", { mode: "bm25", filters: ["path=glacier.md"] })).toEqual([]);
        await expect(col.getDocument(glacier)).rejects.toMatchObject({ code: "DOCUMENT_NOT_FOUND" });
        expect((await col.listDocuments()).documents.map((d) => d.source)).not.toContain(glacier);
        const behind = await col.status({ replicaLag: true });
        expect(behind.documents).toBe(2);
        expect(behind.replicas![0]!.replay_lag_bytes).toBeGreaterThan(0);
        // The replica's old ranking, served from its own snapshot (not the primary's, whose statistics changed).
        const old = await col.retrieve("certificates renew", 10);
        expect(old.map((h) => h.score)).toEqual((await new PgLexicalSearch().search(r, analyzeQuery("certificates renew"), 10)).map((h) => h.score));
      } finally {
        await r.query("SELECT pg_wal_replay_resume()");
      }
      await waitForReplay(p, r);
      const [archived] = await col.search("glacier archives yearly exports", { verify: true });
      expect(archived?.citation.source).toBe(glacier);
      expect(archived!.verification?.verdict).toBe("verified");
      expect((await col.getDocument(glacier)).source).toBe(glacier);
      // The cached segment blocks follow the replayed segments: the same ranking as a fresh engine on the primary.
      const served = await col.retrieve("certificates renew", 10);
      const fresh = await new PgLexicalSearch().search(p, analyzeQuery("certificates renew"), 10);
      expect(served.map((h) => h.score)).toEqual(fresh.map((h) => h.score));
      expect(served.length).toBe(2);

      // `grk status` says how far behind the replica is, in text and JSON.
      writeFileSync(join(work.dir, "replica.json"), JSON.stringify({ store: withReplica, index_dir: indexDir, collection: "served" }));
      const text = grk(["status", "--config", "replica.json"], { cwd: work.dir });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^replica GRK_REPL_REPLICA_URL \(127\.0\.0\.1:\d+\/postgres\): behind by \d+ bytes, \d+\.\d s$/m);
      const json = grk(["status", "--config", "replica.json", "--json"], { cwd: work.dir });
      expect(JSON.parse(json.stdout).replicas).toEqual([expect.objectContaining({ name: "GRK_REPL_REPLICA_URL", ok: true, replay_lag_bytes: expect.any(Number) })]);

      // /readyz and index_status report the lag; a replica that is down falls back to the primary.
      const server = await startTestServer({ indexDir, settings: { store: withReplica } });
      try {
        const ready = await http(server, "GET", "/readyz");
        expect(ready.status).toBe(200);
        expect(ready.json.store.replicas).toEqual([expect.objectContaining({ name: "GRK_REPL_REPLICA_URL", ok: true, replay_lag_bytes: expect.any(Number) })]);
        const described = await http(server, "GET", "/v1/collections/served");
        expect(described.json.replicas).toEqual([expect.objectContaining({ name: "GRK_REPL_REPLICA_URL", ok: true })]);

        // A stalled replica (its backends under SIGSTOP) stalls neither the server nor its readiness answer.
        const own = (await r.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
        const pids = (
          await r.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND pid <> $1", [own])
        ).rows.map((row) => row.pid);
        expect(pids.length).toBeGreaterThan(0);
        const stopped: number[] = [];
        try {
          for (const pid of pids) {
            process.kill(pid, "SIGSTOP");
            stopped.push(pid);
          }
          const stalled = await within(http(server, "GET", "/readyz"), 10_000);
          expect(stalled).not.toBe("no answer");
          expect((stalled as HttpResult).status).toBe(200);
          expect((stalled as HttpResult).json.store.replicas[0]).toMatchObject({ name: "GRK_REPL_REPLICA_URL", ok: false });
          expect((await within(http(server, "GET", "/healthz"), 10_000)) as HttpResult).toMatchObject({ status: 200 });
        } finally {
          for (const pid of stopped) process.kill(pid, "SIGCONT");
        }

        await stopReplica();
        const [fallback] = await col.search("glacier archives yearly exports");
        expect(fallback?.citation.source).toBe(glacier);
        expect((await col.verify(fallback!.citation)).verdict).toBe("verified");
        expect(stderr.join("")).toMatch(/read replica GRK_REPL_REPLICA_URL \(127\.0\.0\.1:\d+\/postgres\) passed over, reads go to the next server/);
        const down = await col.status({ replicaLag: true });
        expect(down.documents).toBe(3);
        expect(down.replicas![0]).toMatchObject({ ok: false, passed_over: expect.any(String) });
        const cli = grk(["search", "glacier archives", "--config", "replica.json"], { cwd: work.dir });
        expect(cli.code, cli.stderr).toBe(0);
        expect(cli.stdout).toContain("glacier.md");
        expect(cli.stderr).toContain("read replica GRK_REPL_REPLICA_URL");
        const cliStatus = grk(["status", "--config", "replica.json"], { cwd: work.dir });
        expect(cliStatus.stdout).toMatch(/^replica GRK_REPL_REPLICA_URL \(127\.0\.0\.1:\d+\/postgres\): not serving reads: the replica does not answer/m);
        const readyWithout = await http(server, "GET", "/readyz");
        expect(readyWithout.status).toBe(200);
        expect(readyWithout.json.store.replicas[0]).toMatchObject({ name: "GRK_REPL_REPLICA_URL", ok: false, reason: expect.any(String) });
        expect((await http(server, "POST", "/v1/search", { body: { collection: "served", query: "glacier archives" } })).status).toBe(200);
        // Secrets stay out of everything said: no URL (with its user) in warnings, status or readiness.
        for (const said of [stderr.join(""), JSON.stringify(down), readyWithout.text, cli.stderr, cliStatus.stdout]) {
          expect(said).not.toContain(replica.url);
          expect(said).not.toContain("postgres@");
        }
      } finally {
        await server.close();
      }
    } finally {
      await col.close();
      spy.mockRestore();
    }
  }, 240_000);
});
