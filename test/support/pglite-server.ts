/**
 * PostgreSQL with pgvector for the tests: PGlite 0.4.6 (PostgreSQL 17 in
 * WebAssembly, shipping pgvector 0.8.1; Debian's PostgreSQL here has no
 * pgvector package) served over the PostgreSQL wire protocol on 127.0.0.1 by
 * @electric-sql/pglite-socket's own `pglite-server`, so the store talks to it
 * through the same `pg` client and SQL as to a real server (in a child
 * process of its own, so its WebAssembly never holds up the test's event loop).
 *
 * Gaps of PGlite behind a socket, measured (docs/postgres.md): every
 * connection is the same single backend session. So startup options are
 * ignored (the store's `-c search_path=...` included) and session state is
 * shared: {@link TestPglite.useSchema} sets the one session's search_path to
 * the collection under test (one collection at a time per server), and
 * session advisory locks never exclude each other (the writer-lock tests run
 * on the Debian server). Transactions stay per connection (the socket server
 * runs a connection's transaction to its end before serving another).
 *
 * @example
 *   const pglite = await startPglite();
 *   process.env.GRK_URL = pglite.url;
 *   await pglite.useSchema("grk.vec");
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { resolvePoolSettings } from "../../src/store/postgres/connection-settings.js";
import { PgPool } from "../../src/store/postgres/pg-pool.js";

export interface TestPglite {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  /** Run SQL on the shared session (a connection of its own, through the store's own pool). */
  sql<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<R[]>;
  /** Point the shared session's search_path at a collection's schema (what the store's startup option does on a real server). */
  useSchema(schema: string): Promise<void>;
  stop(): Promise<void>;
}

function serverScript(): string {
  const require = createRequire(import.meta.url);
  // The package exports no subpaths: its entry is dist/index.cjs, the CLI sits beside it.
  return join(dirname(require.resolve("@electric-sql/pglite-socket")), "scripts", "server.js");
}

export async function startPglite(): Promise<TestPglite> {
  const child: ChildProcess = spawn(
    process.execPath,
    [serverScript(), "--db", "memory://", "--host", "127.0.0.1", "--port", "0", "--extensions", "vector", "--max-connections", "64"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  let output = "";
  const port = await new Promise<number>((resolve, reject) => {
    // Compiling PostgreSQL's WebAssembly takes 20-30 s on a loaded 2-core machine; allow for far worse.
    const timer = setTimeout(() => reject(new Error(`pglite-server did not start within 180 s: ${output}`)), 180_000);
    child.stdout!.on("data", (d: Buffer) => {
      output += d.toString();
      const m = /listening on (\{.*\})/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve((JSON.parse(m[1]!) as { port: number }).port);
      }
    });
    child.stderr!.on("data", (d: Buffer) => (output += d.toString()));
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`pglite-server exited (${code}) before listening: ${output}`));
    });
  });
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const settings = resolvePoolSettings({ kind: "postgres", url_env: "PGLITE_URL", pool_max: 2 }, { PGLITE_URL: url });
  const sql = async <R>(text: string, params: unknown[] = []): Promise<R[]> => {
    const pool = await PgPool.create(settings, "public");
    try {
      return (await pool.query<R>(text, params)).rows;
    } finally {
      await pool.close();
    }
  };
  return {
    url,
    sql,
    useSchema: async (schema) => {
      await sql(`SET search_path TO "${schema.replace(/"/g, '""')}"`);
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
