/**
 * `grk doctor`'s checks of a collection file itself, before any row is read:
 * SQLite's integrity_check, the groundkit stamp and the schema version, on a
 * read-only connection of its own (file-health.ts).
 */
import type { DoctorCheck, FileChecks } from "../store-health.js";
import { inspectCollectionFile, type FileInspection } from "./file-health.js";
import { APPLICATION_ID, SCHEMA_VERSION } from "./schema.js";

/** Inspect a collection file and say what is wrong with it, if anything. */
export function checkCollectionFile(path: string): FileChecks {
  return fileChecks(inspectCollectionFile(path));
}

/** The checks made on the file itself, and whether the row checks can run on it. */
function fileChecks(f: FileInspection): FileChecks {
  if (f.unreadable !== undefined) {
    const check: DoctorCheck = {
      name: "integrity",
      status: "problem",
      detail: "the file cannot be opened as SQLite",
      problems: [
        {
          message: `the collection file cannot be opened: ${f.unreadable}`,
          action: "Restore it from a backup, or delete the collection (`grk collections delete <name>`) and ingest again.",
          repairable: false,
        },
      ],
    };
    return { checks: [check], usable: false, damaged: true, olderSchema: undefined, schemaVersion: SCHEMA_VERSION };
  }
  const damaged = f.integrityErrors.length > 0;
  const integrity: DoctorCheck = damaged
    ? {
        name: "integrity",
        status: "problem",
        detail: "SQLite integrity_check found damage",
        problems: [
          {
            message: `SQLite integrity_check: ${f.integrityErrors.slice(0, 5).join("; ")}${f.integrityErrors.length > 5 ? "; …" : ""}`,
            action:
              "The file is damaged (a disk or copy error, or a write from outside SQLite). Restore it from a backup, " +
              "or delete the collection (`grk collections delete <name>`) and ingest again.",
            repairable: false,
          },
        ],
      }
    : { name: "integrity", status: "ok", detail: "SQLite integrity_check: ok", problems: [] };
  const foreign = f.applicationId !== APPLICATION_ID;
  const version = f.userVersion ?? 0;
  const schema: DoctorCheck = foreign
    ? problemCheck("schema", `application_id ${f.applicationId}`, {
        message: `the file is not stamped as a groundkit index (application_id ${f.applicationId})`,
        action: "Point --index-dir at a groundkit index directory; this file is left as it is.",
        repairable: false,
      })
    : version > SCHEMA_VERSION
      ? problemCheck("schema", `version ${version}`, {
          message: `schema version ${version} is newer than this groundkit reads (${SCHEMA_VERSION})`,
          action: "Upgrade groundkit.",
          repairable: false,
        })
      : version < SCHEMA_VERSION
        ? problemCheck("schema", `version ${version}`, {
            message: `schema version ${version} is older than this groundkit's (${SCHEMA_VERSION}); the other checks need the current one`,
            action: "Run `grk doctor --repair` (or any ingest) to migrate it.",
            repairable: true,
          })
        : { name: "schema", status: "ok", detail: `version ${version} (current)`, problems: [] };
  const usable = !foreign && version <= SCHEMA_VERSION;
  return { checks: [integrity, schema], usable, damaged, olderSchema: usable && version < SCHEMA_VERSION ? version : undefined, schemaVersion: SCHEMA_VERSION };
}

function problemCheck(name: string, detail: string, p: DoctorCheck["problems"][number]): DoctorCheck {
  return { name, status: "problem", detail, problems: [p] };
}

