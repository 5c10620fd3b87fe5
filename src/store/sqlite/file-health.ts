/**
 * A look at a collection file before anything opens it for use: SQLite's own
 * `integrity_check`, the groundkit stamp and the schema version, on a
 * read-only connection of its own so a damaged or foreign file is never
 * modified (opening it for use could migrate it).
 */
import Database from "better-sqlite3";

/** What {@link inspectCollectionFile} found. */
export interface FileInspection {
  /** Why the file could not be read as SQLite at all; undefined when it could. */
  unreadable?: string | undefined;
  applicationId?: number | undefined;
  userVersion?: number | undefined;
  /** `integrity_check`'s findings; empty when it answered "ok". */
  integrityErrors: string[];
}

/** Findings of integrity_check reported at most (a badly damaged file can have thousands). */
const MAX_INTEGRITY_LINES = 20;

export function inspectCollectionFile(path: string): FileInspection {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const applicationId = db.pragma("application_id", { simple: true }) as number;
    const userVersion = db.pragma("user_version", { simple: true }) as number;
    let integrityErrors: string[];
    try {
      const rows = db.pragma(`integrity_check(${MAX_INTEGRITY_LINES})`) as Array<{ integrity_check: string }>;
      integrityErrors = rows.map((r) => r.integrity_check).filter((line) => line !== "ok");
    } catch (err) {
      // A page damaged badly enough makes the check itself fail (SQLITE_CORRUPT): that is its finding.
      integrityErrors = [errorText(err)];
    }
    return { applicationId, userVersion, integrityErrors };
  } catch (err) {
    return { unreadable: errorText(err), integrityErrors: [] };
  } finally {
    db?.close();
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
