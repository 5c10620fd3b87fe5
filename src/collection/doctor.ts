/**
 * `grk doctor` as a library call: is a collection healthy, and if not, what
 * to do. The file is inspected first on a read-only connection of its own
 * (SQLite's integrity_check, the groundkit stamp, the schema version), then
 * opened read-only for the row checks (health.ts). With `repair`,
 * the safe repairs run under the writer lock, and everything is checked again.
 *
 * @example
 *   const report = await doctorCollection({ indexDir: ".groundkit", collection: "docs" }, { sample: 20 });
 *   if (!report.healthy) for (const c of report.checks) for (const p of c.problems) console.log(p.message, p.action);
 */
import { join, resolve } from "node:path";
import { checkCollectionName } from "../core/collection-name.js";
import { DEFAULTS } from "../core/config.js";
import { toGroundkitError } from "../core/errors.js";
import { listCollections, openCollection } from "./open.js";
import type { LockWaitOptions, OpenCollectionOptions } from "./types.js";
import { collectionNotFound } from "./not-found.js";
import type { DoctorCheck, RepairAction, SampleOutcome } from "./health.js";
import { inspectCollectionFile, type FileInspection } from "../store/sqlite/file-health.js";
import { APPLICATION_ID, SCHEMA_VERSION } from "../store/sqlite/schema.js";
import { existsSync } from "node:fs";

export type { DoctorCheck, DoctorProblem, RepairAction, SampleOutcome } from "./health.js";

/** What `grk doctor --json` prints per collection (stable shape). */
export interface DoctorReport {
  collection: string;
  path: string;
  /** No check found a problem (after repairs, with `repair`). */
  healthy: boolean;
  checks: DoctorCheck[];
  /** Verdicts of the re-verified sample, by source class (classes without documents are absent). */
  sample: { size: number; classes: Record<string, SampleOutcome> };
  /** What `repair` did (empty without it, or when nothing needed doing). */
  repairs: RepairAction[];
}

export interface DoctorOptions extends LockWaitOptions {
  /** Citations re-verified per source class (default 20; 0 skips the sample). */
  sample?: number | undefined;
  /** Make the safe repairs, then check again. */
  repair?: boolean | undefined;
}

/** Default citations re-verified per source class. */
export const DEFAULT_DOCTOR_SAMPLE = 20;

/** Check one collection (and repair what is safe to, with `repair`). */
export async function doctorCollection(loc: OpenCollectionOptions, opts: DoctorOptions = {}): Promise<DoctorReport> {
  const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
  const name = checkCollectionName(loc.collection ?? DEFAULTS.collection);
  const path = join(indexDir, `${name}.sqlite3`);
  if (!existsSync(path)) throw await collectionNotFound(name, `Collection '${name}' does not exist in ${indexDir}.`, () => listCollections({ indexDir, store: loc.store }));
  const sample = opts.sample ?? DEFAULT_DOCTOR_SAMPLE;
  const repairs: RepairAction[] = [];
  let file = fileChecks(inspectCollectionFile(path));
  if (opts.repair) {
    if (file.damaged) {
      repairs.push({ check: "integrity", did: "repaired nothing: the file is damaged, and rewriting a damaged file could lose more of it" });
    } else if (file.usable) {
      // Opening it writable migrates an older schema; every repair runs under the writer lock.
      const writable = await openCollection({ ...loc, collection: name, indexDir, readonly: false });
      try {
        if (file.olderSchema) repairs.push({ check: "schema", did: `migrated the schema from version ${file.olderSchema} to ${SCHEMA_VERSION}` });
        repairs.push(...(await writable.repair(opts)));
      } finally {
        await writable.close();
      }
      file = fileChecks(inspectCollectionFile(path));
    } else {
      repairs.push({ check: "schema", did: "repaired nothing: this groundkit does not write a file it cannot read (see the schema check)" });
    }
  }
  const checks = [...file.checks];
  let classes: Record<string, SampleOutcome> = {};
  if (file.usable && !file.olderSchema) {
    try {
      const col = await openCollection({ ...loc, collection: name, indexDir, readonly: true });
      try {
        const r = await col.checkHealth({ sample });
        checks.push(...r.checks);
        classes = r.sample;
      } finally {
        await col.close();
      }
    } catch (err) {
      // A file damaged where opening reads it: the integrity check above says so.
      checks.push(...failedReport(name, path, err).checks);
    }
  } else {
    checks.push({ name: "rows", status: "skipped", detail: "not checked: see the problems above", problems: [] });
  }
  return {
    collection: name,
    path,
    healthy: checks.every((c) => c.status !== "problem"),
    checks,
    sample: { size: sample, classes },
    repairs,
  };
}

/** The checks made on the file itself, and whether the row checks can run on it. */
function fileChecks(f: FileInspection): { checks: DoctorCheck[]; usable: boolean; damaged: boolean; olderSchema: number | undefined } {
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
    return { checks: [check], usable: false, damaged: true, olderSchema: undefined };
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
  return { checks: [integrity, schema], usable, damaged, olderSchema: usable && version < SCHEMA_VERSION ? version : undefined };
}

function problemCheck(name: string, detail: string, p: DoctorCheck["problems"][number]): DoctorCheck {
  return { name, status: "problem", detail, problems: [p] };
}

/** A report for a collection whose check could not even start (it is named, with the reason). */
export function failedReport(collection: string, path: string, err: unknown): DoctorReport {
  const e = toGroundkitError(err);
  return {
    collection,
    path,
    healthy: false,
    checks: [
      {
        name: "open",
        status: "problem",
        detail: "the collection could not be checked",
        problems: [{ message: `error[${e.code}]: ${e.message}`, action: e.hint, repairable: false }],
      },
    ],
    sample: { size: 0, classes: {} },
    repairs: [],
  };
}
