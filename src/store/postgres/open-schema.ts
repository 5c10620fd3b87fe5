/**
 * Opening a collection's PostgreSQL schema safely: one that is not ours, or
 * that a newer groundkit wrote, is refused after a read-only look; a missing
 * one is created only when asked, in one transaction holding an advisory
 * transaction lock (two processes creating it at once take turns).
 */
import { GroundkitError } from "../../core/errors.js";
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from "./schema.js";
import type { PgPool, PgRunner } from "./pg-pool.js";

/** Advisory lock class of groundkit ("GRK1"); the second key picks the collection. */
export const LOCK_CLASS = 0x47524b31;

/** Advisory-lock keys below LOCK_CLASS: the writer lock and the migration lock of one collection. */
export function lockKey(schema: string, purpose: "writer" | "migrate"): number {
  // FNV-1a over the schema name: a stable 32-bit key per collection (a collision only makes two collections take turns).
  let h = purpose === "writer" ? 0x811c9dc5 : 0x01000193;
  for (let i = 0; i < schema.length; i++) {
    h ^= schema.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** Quote a PostgreSQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

interface SchemaState {
  exists: boolean;
  applicationId: string | undefined;
  version: number;
}

async function inspect(conn: PgRunner, schema: string): Promise<SchemaState> {
  const exists = (await conn.query<{ n: number }>("SELECT count(*) AS n FROM pg_namespace WHERE nspname = $1", [schema])).rows[0]!.n > 0;
  if (!exists) return { exists, applicationId: undefined, version: 0 };
  const hasMeta =
    (await conn.query<{ n: number }>("SELECT count(*) AS n FROM pg_tables WHERE schemaname = $1 AND tablename = 'meta'", [schema])).rows[0]!.n > 0;
  if (!hasMeta) {
    const tables = (await conn.query<{ n: number }>("SELECT count(*) AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1", [schema])).rows[0]!.n;
    return { exists, applicationId: tables === 0 ? undefined : "", version: 0 };
  }
  // Qualified, so a role without USAGE on the schema is told so (42501) rather than that `meta` is missing.
  const rows = (
    await conn.query<{ key: string; value: string }>(`SELECT key, value FROM ${quoteIdent(schema)}.meta WHERE key IN ('application_id', 'schema_version')`)
  ).rows;
  const get = (k: string): string | undefined => rows.find((r) => r.key === k)?.value;
  return { exists, applicationId: get("application_id") ?? "", version: Number(get("schema_version") ?? 0) };
}

function check(state: SchemaState, label: string): void {
  if (state.applicationId !== undefined && state.applicationId !== APPLICATION_ID) {
    throw new GroundkitError("STORE_FOREIGN", `The PostgreSQL schema ${label} exists but is not a groundkit collection.`);
  }
  if (state.version > SCHEMA_VERSION) {
    throw new GroundkitError(
      "STORE_NEWER",
      `The PostgreSQL schema ${label} has schema version ${state.version}; this groundkit reads up to version ${SCHEMA_VERSION}.`,
    );
  }
}

/**
 * Check (and with `create`, make or migrate) the collection schema. The
 * connection's search_path already names it.
 */
export async function openSchema(pool: PgPool, schema: string, opts: { create: boolean; collection: string }): Promise<void> {
  const label = quoteIdent(schema);
  const before = await inspect(pool, schema);
  check(before, label);
  if (!before.exists && !opts.create) {
    throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${opts.collection}' does not exist in PostgreSQL (no schema ${label}).`);
  }
  if (before.version === SCHEMA_VERSION) return;
  if (!opts.create && before.version === 0) {
    throw new GroundkitError("COLLECTION_NOT_FOUND", `Collection '${opts.collection}' does not exist in PostgreSQL (schema ${label} is empty).`);
  }
  const conn = await pool.connect();
  try {
    await conn.query("BEGIN");
    await conn.query("SELECT pg_advisory_xact_lock($1, $2)", [LOCK_CLASS, lockKey(schema, "migrate")]);
    await conn.query(`CREATE SCHEMA IF NOT EXISTS ${label}`);
    // Re-read under the lock: another process may have migrated meanwhile.
    const now = await inspect(conn, schema);
    check(now, label);
    for (const m of MIGRATIONS) {
      if (m.version <= now.version) continue;
      await conn.query(m.sql);
    }
    await conn.query(
      `INSERT INTO meta (key, value) VALUES ('application_id', $1), ('schema_version', $2)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
      [APPLICATION_ID, String(SCHEMA_VERSION)],
    );
    await conn.query("COMMIT");
  } catch (err) {
    // A connection that cannot roll back is closed instead, which rolls back with it.
    await conn.query("ROLLBACK").catch(() => conn.release(true));
    throw err;
  } finally {
    conn.release();
  }
}

/** Drop a collection's schema and everything in it. */
export async function dropSchema(conn: PgRunner, schema: string): Promise<void> {
  await conn.query(`DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`);
}
