/**
 * `grk doctor` as a library call: is a collection healthy, and if not, what
 * to do. A SQLite file is inspected first on a read-only connection of its own
 * (SQLite's integrity_check, the groundkit stamp, the schema version), then
 * opened read-only for the row checks (health.ts); a PostgreSQL collection has
 * its row checks only. With `repair`,
 * the safe repairs run under the writer lock, and everything is checked again.
 *
 * @example
 *   const report = await doctorCollection({ indexDir: ".groundkit", collection: "docs" }, { sample: 20 });
 *   if (!report.healthy) for (const c of report.checks) for (const p of c.problems) console.log(p.message, p.action);
 */
import { resolve } from "node:path";
import { checkCollectionName } from "../core/collection-name.js";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError, toGroundkitError } from "../core/errors.js";
import { listCollections, openCollection } from "./open.js";
import type { LockWaitOptions, OpenCollectionOptions } from "./types.js";
import { collectionNotFound } from "./not-found.js";
import type { DoctorCheck, RepairAction, SampleOutcome } from "./health.js";
import { backendOf } from "../store/backends.js";
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
  const backend = await backendOf(loc.store);
  const path = backend.fileOf({ indexDir, name, store: loc.store });
  const sample = opts.sample ?? DEFAULT_DOCTOR_SAMPLE;
  if (path === undefined || backend.checkFile === undefined) {
    if (!backend.doctorChecks) throw new GroundkitError("STORE_UNSUPPORTED", `grk doctor cannot check collections in ${backend.kind}.`);
    return doctorServerCollection({ ...loc, indexDir, collection: name }, sample, opts);
  }
  const checkFile = backend.checkFile;
  if (!existsSync(path)) throw await collectionNotFound(name, `Collection '${name}' does not exist in ${indexDir}.`, () => listCollections({ indexDir, store: loc.store }));
  const repairs: RepairAction[] = [];
  let file = await checkFile(path);
  if (opts.repair) {
    if (file.damaged) {
      repairs.push({ check: "integrity", did: "repaired nothing: the file is damaged, and rewriting a damaged file could lose more of it" });
    } else if (file.usable) {
      // Opening it writable migrates an older schema; every repair runs under the writer lock.
      const writable = await openCollection({ ...loc, collection: name, indexDir, readonly: false });
      try {
        if (file.olderSchema) repairs.push({ check: "schema", did: `migrated the schema from version ${file.olderSchema} to ${file.schemaVersion}` });
        repairs.push(...(await writable.repair(opts)));
      } finally {
        await writable.close();
      }
      file = await checkFile(path);
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

/**
 * A collection in a database server (PostgreSQL): no file of ours to inspect (the server keeps its own pages
 * whole), so only the row checks run, through the store's own health answers; repairs as on a file.
 */
async function doctorServerCollection(loc: OpenCollectionOptions & { collection: string }, sample: number, opts: DoctorOptions): Promise<DoctorReport> {
  const names = await listCollections({ indexDir: loc.indexDir, store: loc.store });
  if (!names.includes(loc.collection)) {
    throw await collectionNotFound(loc.collection, `Collection '${loc.collection}' does not exist in this store.`, () => Promise.resolve(names));
  }
  const repairs: RepairAction[] = [];
  if (opts.repair) {
    const writable = await openCollection({ ...loc, readonly: false });
    try {
      repairs.push(...(await writable.repair(opts)));
    } finally {
      await writable.close();
    }
  }
  const col = await openCollection({ ...loc, readonly: true });
  try {
    const r = await col.checkHealth({ sample });
    return {
      collection: loc.collection,
      path: col.path,
      healthy: r.checks.every((c) => c.status !== "problem"),
      checks: r.checks,
      sample: { size: sample, classes: r.sample },
      repairs,
    };
  } finally {
    await col.close();
  }
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
