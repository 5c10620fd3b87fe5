/**
 * What a SIGKILLed writer leaves in a PostgreSQL collection, and that the next
 * ingest clears it (the crash torture's findings, `npm run torture -- --store
 * postgres`, kept as regression tests). A real server on 127.0.0.1; the killed
 * writer is a real process running the built store (dist/), killed by SIGKILL.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { tempDir } from "./support/cli.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
let work: { dir: string; cleanup: () => void };
const config = { kind: "postgres" as const, url_env: "GRK_CRASH_PG_URL", schema: "crash" };

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_CRASH_PG_URL = pg.url;
  work = tempDir("grk-pg-crash-");
});
afterAll(async () => {
  await pg?.stop().catch(() => {});
  work?.cleanup();
});

/** A writer process that records a folder walk in the store and is SIGKILLed mid-walk. */
function killedWalk(collection: string, sources: string[]): { signal: NodeJS.Signals | null; stderr: string } {
  const storeModule = pathToFileURL(join(process.cwd(), "dist", "store", "postgres", "postgres-store.js")).href;
  const script = `
    const { PostgresStore } = await import(${JSON.stringify(storeModule)});
    const store = await PostgresStore.open(${JSON.stringify(config)}, ${JSON.stringify(collection)}, { create: false });
    await store.resetSeenSources();
    for (const s of ${JSON.stringify(sources)}) await store.markSourceSeen(s);
    // Pruning reads the walk's record from the server: it is written there now.
    await store.unseenDocumentsUnder("/", 0, 10);
    process.kill(process.pid, "SIGKILL");
  `;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", script], { env: process.env, encoding: "utf8" });
  return { signal: r.signal, stderr: r.stderr };
}

/** Rows in the collection's walk record (those whose source ends with `suffix`, when given). */
async function walkRows(collection: string, suffix = ""): Promise<number> {
  const store = await PostgresStore.open(config, collection, { create: false });
  try {
    const sql = "SELECT count(*) AS n FROM walk_seen WHERE right(source, length($1)) = $1";
    return Number((await store.pool.query<{ n: string }>(sql, [suffix])).rows[0]!.n);
  } finally {
    await store.close();
  }
}

describe("a SIGKILLed ingest on PostgreSQL", () => {
  it("leaves walk_seen rows that the next ingest clears", async () => {
    const docs = join(work.dir, "docs");
    mkdirSync(docs, { recursive: true });
    writeFileSync(join(docs, "a.md"), "# Alpha\n\nThe first document.\n");
    writeFileSync(join(docs, "b.md"), "# Beta\n\nThe second document.\n");
    const col = await openCollection({ indexDir: join(work.dir, "idx"), collection: "walk", create: true, store: config });
    try {
      await col.ingest([docs]);
      const killed = killedWalk("walk", [join(docs, "a.md"), join(docs, "b.md"), join(docs, "gone.md")]);
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      // The dead walk's record is still there (the killed process never closed its store); its start swept
      // every older row, this process's open walk's included (a walk runs only under the writer lock)...
      expect(await walkRows("walk", "gone.md")).toBe(1);
      expect(await walkRows("walk")).toBeGreaterThanOrEqual(3);
      // ...and the next ingest, which holds the writer lock (so no other walk can be live), sweeps it.
      writeFileSync(join(docs, "b.md"), "# Beta\n\nThe second document, changed.\n");
      const summary = await col.ingest([docs]);
      expect(summary.failed).toEqual([]);
    } finally {
      await col.close();
    }
    // Closed: this process's own walk rows are gone too, so nothing is left at all.
    expect(await walkRows("walk")).toBe(0);
  });
});
