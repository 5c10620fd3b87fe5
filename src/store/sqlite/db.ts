/**
 * The connection type every store/sqlite module takes. It has a file of its
 * own so that the modules open-database.ts imports (schema.ts, and the
 * postings it migrates) can name it without importing open-database.ts back.
 */
import type Database from "better-sqlite3";

/** An open better-sqlite3 connection to a collection's file. */
export type Db = Database.Database;
