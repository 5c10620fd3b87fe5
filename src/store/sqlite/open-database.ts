/**
 * Opening a collection's SQLite file safely: a file that is not ours, or that a
 * newer groundkit wrote, is refused after a read-only look and left byte-identical.
 */
import { chmodSync, existsSync } from "node:fs";
import Database from "better-sqlite3";
import { GroundkitError } from "../../core/errors.js";
import type { Db } from "./db.js";
import { APPLICATION_ID, MIGRATIONS, SCHEMA_VERSION } from "./schema.js";

/**
 * `new Database(...)`, with better-sqlite3's "no compiled binary" failure (an install with
 * `--ignore-scripts`, or a failed build) made INSTALL_INCOMPLETE instead of a verdict on the file.
 */
function openNative(path: string, options: Database.Options): Db {
  try {
    return new Database(path, options);
  } catch (err) {
    if (err instanceof Error && err.message.includes("Could not locate the bindings file")) {
      throw new GroundkitError(
        "INSTALL_INCOMPLETE",
        "better-sqlite3 has no compiled binary (was groundkit installed with --ignore-scripts, or did its build fail?).",
        undefined,
        { cause: err },
      );
    }
    throw err;
  }
}

/** Inspect an existing file read-only; throws STORE_FOREIGN / STORE_NEWER. */
function checkExistingFile(path: string): void {
  let db: Db | undefined;
  try {
    db = openNative(path, { readonly: true, fileMustExist: true });
    const appId = db.pragma("application_id", { simple: true }) as number;
    const version = db.pragma("user_version", { simple: true }) as number;
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_schema").get() as { n: number };
    if (appId !== APPLICATION_ID && !(appId === 0 && version === 0 && tables.n === 0)) {
      throw new GroundkitError("STORE_FOREIGN", `${path} is not a groundkit index (application_id ${appId}).`);
    }
    if (version > SCHEMA_VERSION) {
      throw new GroundkitError(
        "STORE_NEWER",
        `${path} has schema version ${version}; this groundkit reads up to version ${SCHEMA_VERSION}.`,
      );
    }
  } catch (err) {
    if (err instanceof GroundkitError) throw err;
    throw new GroundkitError("STORE_FOREIGN", `${path} is not a groundkit index (not a readable SQLite file).`, undefined, {
      cause: err,
    });
  } finally {
    db?.close();
  }
}

/**
 * Open (creating if allowed) a collection database with WAL, busy_timeout and
 * foreign keys on, and bring its schema up to date.
 */
export function openDatabase(path: string, opts: { create: boolean; readonly?: boolean }): Db {
  const exists = existsSync(path);
  if (!exists && !opts.create) {
    throw new GroundkitError("COLLECTION_NOT_FOUND", `No collection file at ${path}.`);
  }
  if (exists) checkExistingFile(path);

  const db = openNative(path, { readonly: opts.readonly ?? false });
  try {
    if (!exists) chmodSync(path, 0o600);
    db.pragma("busy_timeout = 10000");
    if (!opts.readonly) {
      db.pragma("journal_mode = WAL");
      db.pragma("synchronous = NORMAL");
    }
    db.pragma("foreign_keys = ON");
    // Memory-mapped reads: measured 20 -> 14.5 ms p50 for KNN over 20k 512-d vectors, and faster postings reads.
    db.pragma("mmap_size = 268435456");
    if (!opts.readonly) migrate(db);
    return db;
  } catch (err) {
    db.close();
    throw err;
  }
}

function migrate(db: Db): void {
  if ((db.pragma("user_version", { simple: true }) as number) === SCHEMA_VERSION) return;
  const apply = db.transaction(() => {
    // Re-read under the write lock: another process may have migrated meanwhile.
    const current = db.pragma("user_version", { simple: true }) as number;
    for (const m of MIGRATIONS) {
      if (m.version <= current) continue;
      if (m.sql) db.exec(m.sql);
      m.run?.(db);
    }
    db.pragma(`application_id = ${APPLICATION_ID}`);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  });
  apply.immediate();
}
