/** `grk doctor`: is a collection healthy, and what to do when it is not (`--repair` for what is safe). */
import { resolve } from "node:path";
import { Command } from "commander";
import { checkDoctorSupported, collectionFile, listCollections } from "../collection/index.js";
import { DEFAULT_DOCTOR_SAMPLE, doctorCollection, failedReport, type DoctorReport } from "../collection/doctor.js";
import { DEFAULTS } from "../core/config.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";

interface DoctorFlags extends CommonFlags, LockTimeoutFlags {
  sample: number;
  repair?: boolean;
}

export function doctorCommand(): Command {
  const cmd = new Command("doctor")
    .description(
      "check collections (every one in the index dir unless --collection): file integrity, schema, chunks and postings, " +
        "vectors and embedding identity, extractor identities, snapshots, and a re-verified sample of citations; exit 1 on any problem",
    )
    .option("--sample <n>", "citations re-verified per source class (0: none)", intFlag("--sample", 0, 100_000), DEFAULT_DOCTOR_SAMPLE)
    .option("--repair", "make the safe repairs (rebuild derived structures, sweep orphans, backfill vectors) under the writer lock, then check again");
  withLockTimeoutOption(cmd);
  withCommonOptions(cmd).action(
    action(async (flags: DoctorFlags) => {
      const loc = resolveLocation(flags);
      const indexDir = resolve(loc.indexDir ?? DEFAULTS.indexDir);
      await checkDoctorSupported(loc.store);
      const names = loc.collection !== undefined ? [loc.collection] : await listCollections({ indexDir, store: loc.store });
      const reports: DoctorReport[] = [];
      for (const name of names) {
        const one = { ...loc, indexDir, collection: name };
        try {
          reports.push(await doctorCollection(one, { sample: flags.sample, repair: flags.repair ?? false, ...lockWait(flags, name) }));
        } catch (err) {
          // Checking every collection: one that cannot be checked is a finding, not the end of the run.
          if (names.length === 1) throw err;
          // A file's path, or for a server-backed collection its name (the server's location is in its report).
          reports.push(failedReport(name, (await collectionFile(one)) ?? name, err));
        }
      }
      const healthy = reports.every((r) => r.healthy);
      if (flags.json) printJson({ healthy, collections: reports });
      else if (reports.length === 0) println(`no collections in ${indexDir}`);
      else for (const r of reports) printReport(r);
      return healthy ? 0 : 1;
    }),
  );
  return cmd;
}

function printReport(r: DoctorReport): void {
  println(`collection ${r.collection} (${r.path})`);
  for (const a of r.repairs) println(`  repaired  ${a.check}: ${a.did}`);
  for (const c of r.checks) {
    println(`  ${c.status.padEnd(8)}  ${c.name.padEnd(10)}  ${c.detail}`);
    for (const p of c.problems) {
      println(`            problem: ${p.message}`);
      println(`            do: ${p.action}`);
    }
  }
  const problems = r.checks.reduce((n, c) => n + c.problems.length, 0);
  println(problems === 0 ? "  healthy" : `  ${problems} problem(s)`);
}
