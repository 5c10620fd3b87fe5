/**
 * Document history on every surface and both stores (issue 28): `grk status` reports what history keeps,
 * `grk collections copy` carries every kept version between SQLite and PostgreSQL (both ways), `grk doctor`
 * checks history's integrity on PostgreSQL too, the REST and MCP `ingest` tool takes the same `history`
 * retention as `grk ingest --history` (a bad value is refused before anything is written), and retention by
 * age is enforced at ingest on both stores. Real SQLite files, a real PostgreSQL on 127.0.0.1
 * (test/support/postgres-server.ts), the real CLI (dist/), a real HTTP server and the MCP SDK's own client.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type OpenCollectionOptions } from "../src/collection/index.js";
import { parseHistorySpec } from "../src/collection/history.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { http, makeCorpus, startTestServer, TOKEN, type Corpus, type TestServer } from "./service-fixtures.js";

let server: TestPostgres;
let work: { dir: string; cleanup: () => void };
const URL_ENV = "GRK_HS_PG_URL";
const pgStore = { kind: "postgres" as const, url_env: URL_ENV, schema: "hs" };

beforeAll(async () => {
  server = await startPostgres();
  process.env[URL_ENV] = server.url;
  work = tempDir("grk-history-surfaces-");
  writeFileSync(join(work.dir, "pg.json"), JSON.stringify({ store: pgStore }));
}, 120_000);
afterAll(async () => {
  await server?.stop();
  work?.cleanup();
});

const VERSIONS = [
  "# Plan\n\nShip the first draft on Monday.\n\n## Risks\n\nThe printer may jam.\n",
  "# Plan\n\nShip the second draft on Friday.\n\n## Risks\n\nThe printer may jam.\n",
  "# Plan\n\nShip the final text next week.\n\n## Risks\n\nThe printer may jam again.\n",
];

function run(args: string[], cwd = work.dir): string {
  const r = grk(args, { cwd, env: { [URL_ENV]: server.url } });
  expect(r.code, `grk ${args.join(" ")}: ${r.stderr}`).toBe(0);
  return r.stdout;
}

interface HistoryJson {
  versions: Array<{ version: number; status: string; ingested_at: string; content_hash: string }>;
}

describe("copy, status and history across the stores (CLI)", () => {
  const dir = () => join(work.dir, "cli");
  const at = (store: "sqlite" | "postgres", collection: string) => ["--collection", collection, ...(store === "postgres" ? ["--config", "../pg.json"] : [])];

  beforeAll(() => {
    mkdirSync(join(dir(), "docs"), { recursive: true });
    for (const text of VERSIONS) {
      writeFileSync(join(dir(), "docs", "plan.md"), text);
      run(["ingest", "docs", "--no-progress", "--collection", "orig"], dir());
    }
  });

  it("`grk status` reports the versions kept, their bytes, the oldest version's times and the retention", () => {
    const history = (JSON.parse(run(["history", "docs/plan.md", "--json", ...at("sqlite", "orig")], dir())) as HistoryJson).versions;
    const s = JSON.parse(run(["status", "--json", ...at("sqlite", "orig")], dir())) as { history: Record<string, unknown> };
    expect(s.history).toMatchObject({
      versions: 2,
      documents: 1,
      oldest_ingested_at: history[2]!.ingested_at,
      retention: { enabled: true, versions: 10, max_age_days: 180, max_bytes: 256 * 1024 * 1024 },
    });
    expect(s.history.bytes).toBeGreaterThan(0);
    const text = run(["status", ...at("sqlite", "orig")], dir());
    expect(text).toContain(`history 2 previous versions of 1 documents, ${s.history.blocks as number} text blocks, ${s.history.bytes as number}B;`);
    expect(text).toContain(`oldest version ingested ${history[2]!.ingested_at}`);
    expect(text).toContain("retention versions=10,days=180,bytes=256MiB");
  });

  it("`grk collections copy` carries every kept version sqlite -> postgres -> sqlite; history and old versions read the same", () => {
    const original = JSON.parse(run(["history", "docs/plan.md", "--json", ...at("sqlite", "orig")], dir())) as HistoryJson;
    expect(original.versions.map((v) => v.status)).toEqual(["current", "replaced", "replaced"]);
    const there = JSON.parse(run(["collections", "copy", "--from", "sqlite:orig", "--to", "postgres:copied", "--json", "--config", "../pg.json"], dir()));
    expect(there).toMatchObject({ documents: 1, history_versions: 2 });
    run(["collections", "copy", "--from", "postgres:copied", "--to", "sqlite:back", "--json", "--config", "../pg.json"], dir());
    for (const [store, name] of [["postgres", "copied"], ["sqlite", "back"]] as const) {
      const copy = JSON.parse(run(["history", "docs/plan.md", "--json", ...at(store, name)], dir())) as HistoryJson;
      expect(copy.versions.map((v) => [v.version, v.status, v.ingested_at, v.content_hash]), `${store}:${name}`).toEqual(
        original.versions.map((v) => [v.version, v.status, v.ingested_at, v.content_hash]),
      );
      for (const n of ["1", "2"]) {
        expect(run(["get", "docs/plan.md", "--version", n, ...at(store, name)], dir()), `${store}:${name} version ${n}`).toBe(
          run(["get", "docs/plan.md", "--version", n, ...at("sqlite", "orig")], dir()),
        );
      }
      const status = JSON.parse(run(["status", "--json", ...at(store, name)], dir())) as { history: Record<string, unknown> };
      expect(status.history, `${store}:${name}`).toMatchObject({ versions: 2, documents: 1 });
    }
    expect(run(["get", "docs/plan.md", "--version", "2", ...at("postgres", "copied")], dir())).toContain("Ship the first draft on Monday.");
  });
});

describe("grk doctor on PostgreSQL", () => {
  it("checks the history's integrity: healthy, then a deliberately broken history row is reported (exit 1)", async () => {
    const docs = join(work.dir, "doctor-docs");
    mkdirSync(docs, { recursive: true });
    const opts: OpenCollectionOptions = { indexDir: join(work.dir, "idx-doctor"), collection: "doc", create: true, store: pgStore };
    const col = await openCollection(opts);
    try {
      for (const text of VERSIONS.slice(0, 2)) {
        writeFileSync(join(docs, "plan.md"), text);
        await col.ingest([docs]);
      }
    } finally {
      await col.close();
    }
    const doctor = (): { code: number; report: { healthy: boolean; collections: Array<{ checks: Array<{ name: string; status: string; problems: Array<{ message: string }> }> }> } } => {
      const r = grk(["doctor", "--json", "--collection", "doc", "--index-dir", opts.indexDir!, "--config", "pg.json"], {
        cwd: work.dir,
        env: { [URL_ENV]: server.url },
      });
      expect(r.stderr).not.toContain("STORE_UNSUPPORTED");
      return { code: r.code, report: JSON.parse(r.stdout) };
    };
    const healthy = doctor();
    expect(healthy.code).toBe(0);
    const checks = healthy.report.collections[0]!.checks;
    expect(checks.find((c) => c.name === "history")).toMatchObject({ status: "ok" });
    expect(checks.find((c) => c.name === "chunks")).toMatchObject({ status: "ok" });
    expect(checks.find((c) => c.name === "citations")).toMatchObject({ status: "ok" });

    const store = await PostgresStore.open(pgStore, "doc", { create: false });
    try {
      await store.pool.query("DELETE FROM history_blocks WHERE hash = (SELECT min(hash) FROM history_blocks)");
    } finally {
      await store.close();
    }
    const broken = doctor();
    expect(broken.code).toBe(1);
    expect(broken.report.healthy).toBe(false);
    const history = broken.report.collections[0]!.checks.find((c) => c.name === "history")!;
    expect(history.status).toBe("problem");
    expect(history.problems[0]!.message).toContain("1 history span(s) name a text block that is not stored");
  });
});

describe("retention by age, enforced at ingest", () => {
  for (const kind of ["sqlite", "postgres"] as const) {
    it(`drops versions superseded longer ago than days=N, and only those (${kind})`, async () => {
      const docs = join(work.dir, `age-${kind}`);
      mkdirSync(docs, { recursive: true });
      const name = `age${kind}`;
      const opts: OpenCollectionOptions = { indexDir: join(work.dir, `idx-age-${kind}`), collection: name, create: true, ...(kind === "postgres" ? { store: pgStore } : {}) };
      writeFileSync(join(docs, "a.md"), VERSIONS[0]!);
      writeFileSync(join(docs, "b.md"), VERSIONS[1]!);
      let col = await openCollection(opts);
      await col.ingest([docs]);
      writeFileSync(join(docs, "a.md"), VERSIONS[1]!);
      writeFileSync(join(docs, "b.md"), VERSIONS[2]!);
      await col.ingest([docs]);
      await col.close();
      // a.md's previous version was superseded ten days ago (as if), b.md's just now.
      const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
      const backdate = `UPDATE history_versions SET superseded_at = '${tenDaysAgo}' WHERE source LIKE '%a.md'`;
      if (kind === "sqlite") {
        const db = new Database(join(opts.indexDir!, `${name}.sqlite3`));
        db.exec(backdate);
        db.close();
      } else {
        const store = await PostgresStore.open(pgStore, name, { create: false });
        await store.pool.query(backdate);
        await store.close();
      }
      col = await openCollection(opts);
      try {
        await col.ingest([docs]);
        expect((await col.historyHealth()).versions, "the default 180 days keeps both").toBe(2);
        await col.ingest([docs], { history: parseHistorySpec("days=5") });
        expect((await col.history(join(docs, "a.md"))).versions.map((v) => v.status)).toEqual(["current"]);
        expect((await col.history(join(docs, "b.md"))).versions.map((v) => v.status)).toEqual(["current", "replaced"]);
        expect((await col.status()).history).toMatchObject({ versions: 1, retention: { max_age_days: 5 } });
      } finally {
        await col.close();
      }
    });
  }
});

describe("the ingest tool takes a history retention (REST and MCP)", () => {
  let corpus: Corpus;
  let rest: TestServer;
  const auth = { authorization: `Bearer ${TOKEN}` };

  beforeAll(async () => {
    corpus = await makeCorpus();
    rest = await startTestServer({ indexDir: corpus.indexDir, allowedRoots: [corpus.docs] }, { token: TOKEN });
  });
  afterAll(async () => {
    await rest?.close();
    corpus?.cleanup();
  });

  it("records a retention given over REST, refuses a bad one with INVALID_ARGUMENT and writes nothing", async () => {
    const bad = await http(rest, "POST", "/v1/collections/fresh/ingest", { body: { inputs: ["."], history: "forever" }, headers: auth });
    expect(bad.status, bad.text).toBe(400);
    expect(bad.json.error.code).toBe("INVALID_ARGUMENT");
    expect(bad.json.error.message).toContain("versions=N,days=N,bytes=SIZE");
    expect(((await http(rest, "GET", "/v1/collections")).json.collections as Array<{ name: string }>).map((c) => c.name)).not.toContain("fresh");

    const ok = await http(rest, "POST", "/v1/collections/default/ingest", { body: { inputs: ["."], history: "versions=3,days=30" }, headers: auth });
    expect(ok.status, ok.text).toBe(200);
    const status = await http(rest, "GET", "/v1/collections/default");
    expect(status.json.history).toMatchObject({ versions: 0, retention: { enabled: true, versions: 3, max_age_days: 30 } });
  });

  it("records a retention given over MCP (off drops what was kept); a bad one is an error result", async () => {
    writeFileSync(join(corpus.docs, "notes.txt"), "Plain text notes about restores, changed.\n");
    const client = new Client({ name: "groundkit-history-surfaces-test", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", rest.url), { requestInit: { headers: auth } }));
    try {
      const kept = (await client.callTool({ name: "ingest", arguments: { inputs: ["."] } })) as CallToolResult;
      expect(kept.isError ?? false, JSON.stringify(kept.content)).toBe(false);
      const before = (await client.callTool({ name: "index_status", arguments: {} })) as CallToolResult;
      expect(before.structuredContent).toMatchObject({ history: { versions: 1 } });
      const bad = (await client.callTool({ name: "ingest", arguments: { inputs: ["."], history: "versions=0" } })) as CallToolResult;
      expect(bad.isError).toBe(true);
      // The SDK validates the arguments against the same schema before the tool runs (as for every tool).
      expect((bad.content[0] as { text: string }).text).toContain("Cannot read the history retention 'versions=0'");
      const off = (await client.callTool({ name: "ingest", arguments: { inputs: ["."], history: "off" } })) as CallToolResult;
      expect(off.isError ?? false, JSON.stringify(off.content)).toBe(false);
      const after = (await client.callTool({ name: "index_status", arguments: {} })) as CallToolResult;
      expect(after.structuredContent).toMatchObject({ history: { versions: 0, retention: { enabled: false } } });
    } finally {
      await client.close();
    }
  });
});
