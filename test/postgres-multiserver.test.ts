/**
 * Three real `grk serve` processes on one real PostgreSQL (127.0.0.1), under
 * concurrent search clients, while one of them ingests a new version of half
 * the documents: every answer is a 200, and within every answer each
 * document's chunks are all of one version (old or new, never a mix). After
 * the ingest every server answers with the new version.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, grk, tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";
import { runLoad, startServes, type ServeProcess } from "./support/serve-load.js";

const DOCS = 200;
const TOKEN = "multiserver-test-token";
let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
let servers: ServeProcess[] = [];
let env: Record<string, string>;

/** Document n at a version: three paragraphs far enough apart to be three chunks, each naming the document and its version. */
function docText(n: number, version: "alpha" | "beta"): string {
  const para = (p: number) =>
    `Paragraph ${p} of keyword${n} release${version}. ` + `The replica keyword${n} answers queries while release${version} is current. `.repeat(8);
  return `# Document keyword${n}\n\n${[0, 1, 2].map(para).join("\n\n")}\n`;
}

function writeDocs(dir: string, version: (n: number) => "alpha" | "beta"): void {
  for (let n = 0; n < DOCS; n++) writeFileSync(join(dir, `doc${n}.md`), docText(n, version(n)));
}

interface Hit {
  document_id: string;
  text: string;
}

/** The versions each document's hits show in one answer; a document with two is torn. */
function tornDocuments(body: unknown): string[] {
  const seen = new Map<string, Set<string>>();
  for (const h of (body as { results: Hit[] }).results) {
    const v = /release(alpha|beta)/.exec(h.text)?.[1] ?? "none";
    if (!seen.has(h.document_id)) seen.set(h.document_id, new Set());
    seen.get(h.document_id)!.add(v);
  }
  return [...seen].filter(([, vs]) => vs.size > 1 || vs.has("none")).map(([id, vs]) => `${id}: ${[...vs].join("+")}`);
}

beforeAll(async () => {
  pg = await startPostgres();
  work = tempDir("grk-pg-multi-");
  env = { PATH: process.env.PATH ?? "", GRK_MULTI_PG_URL: pg.url, GROUNDKIT_API_TOKEN: TOKEN };
  writeFileSync(join(work.dir, "groundkit.config.json"), JSON.stringify({ store: { kind: "postgres", url_env: "GRK_MULTI_PG_URL", schema: "multi" } }));
  const docs = join(work.dir, "docs");
  mkdirSync(docs);
  writeDocs(docs, () => "alpha");
  const ingest = grk(["ingest", "docs", "--chunk-size", "800", "--chunk-overlap", "0", "--json", "--no-progress"], { cwd: work.dir, env });
  if (ingest.code !== 0) throw new Error(`initial ingest failed: ${ingest.stderr}`);
  servers = await startServes(CLI, 3, ["--allowed-root", docs], { cwd: work.dir, env });
}, 120_000);

afterAll(async () => {
  await Promise.all(servers.map((s) => s.stop()));
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

describe("three grk serve processes on one PostgreSQL", () => {
  it("answer concurrent clients with zero errors and no torn document while one of them ingests", async () => {
    const docs = join(work.dir, "docs");
    const first = await fetch(`${servers[2]!.url}/v1/search`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "keyword7", top_k: 10 }),
    });
    const before = (await first.json()) as { results: Hit[] };
    // The chunking gives every document several chunks, so a torn replacement would show.
    expect(before.results.filter((h) => h.document_id === before.results[0]!.document_id).length).toBeGreaterThan(1);

    // Half the documents move to the new version; server 0 ingests them while every server answers searches.
    writeDocs(docs, (n) => (n % 2 === 0 ? "beta" : "alpha"));
    const ingest = fetch(`${servers[0]!.url}/v1/collections/default/ingest`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ inputs: [docs], chunk_size: 800, chunk_overlap: 0 }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, unknown> }));
    const load = await runLoad(
      servers.map((s) => s.url),
      {
        clients: 12,
        until: ingest,
        request: (i) => ({ path: "/v1/search", body: { query: `keyword${(i * 37) % DOCS} replica`, top_k: 10 } }),
        check: (body) => {
          const torn = tornDocuments(body);
          return torn.length ? `torn documents in one answer: ${torn.join(", ")}` : undefined;
        },
      },
    );
    const done = await ingest;
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(load.problems).toEqual([]);
    expect({ errors: load.errors, bad: load.bad }).toEqual({ errors: 0, bad: 0 });
    expect(load.ok).toBeGreaterThan(0);

    // Every server now answers with the new version of a changed document, and the old one of an unchanged one.
    for (const s of servers) {
      for (const [n, version] of [[8, "beta"], [9, "alpha"]] as const) {
        const r = await fetch(`${s.url}/v1/search`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: `keyword${n}`, top_k: 3 }),
        });
        const hits = ((await r.json()) as { results: Hit[] }).results;
        expect(hits.length).toBeGreaterThan(0);
        for (const h of hits) expect(h.text).toContain(`release${version}`);
      }
    }
  }, 180_000);
});
