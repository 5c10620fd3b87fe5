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
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analyzeQuery } from "../src/analysis/analyzer.js";
import { openCollection } from "../src/collection/index.js";
import { PgLexicalSearch } from "../src/store/postgres/lexical-search.js";
import { syncLexicalSegments } from "../src/store/postgres/lexical-segments.js";
import type { Queryable } from "../src/store/postgres/queryable.js";
import { ReadPools, type ReadTarget } from "../src/store/postgres/read-pools.js";
import { replicaLags } from "../src/store/postgres/replica-lag.js";
import { resolveReplicaSettings } from "../src/store/postgres/replica-settings.js";
import { tempDir } from "./support/cli.js";
import { openPool, type TestPool } from "./support/pg-pool.js";
import { startPostgres, startReplica, type TestPostgres } from "./support/postgres-server.js";

let primary: TestPostgres;
let replica: TestPostgres;
let work: { dir: string; cleanup: () => void };
const pools: TestPool[] = [];
const store = { kind: "postgres" as const, url_env: "GRK_REPL_PRIMARY_URL", schema: "repl" };

beforeAll(async () => {
  primary = await startPostgres();
  replica = await startReplica(primary);
  process.env.GRK_REPL_PRIMARY_URL = primary.url;
  process.env.GRK_REPL_REPLICA_URL = replica.url;
  work = tempDir("grk-pg-replica-");
}, 120_000);
afterAll(async () => {
  for (const p of pools) await p.end();
  await replica?.stop();
  await primary?.stop();
  work?.cleanup();
});

function pool(url: string, schema = "repl.docs"): TestPool {
  const p = openPool(url, schema, 2);
  pools.push(p);
  return p;
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
});
