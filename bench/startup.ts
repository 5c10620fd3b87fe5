/**
 * Start-up as a user meets it at a shell: whole-process runs of the built CLI
 * (`node dist/cli/main.js`), each timed from spawn to exit, repeated so the
 * median and the spread say more than one run (issue 29: `grk --version`
 * ≤ 0.2 s and a BM25 `grk search` ≤ 0.35 s on an idle 2-core machine).
 *
 * The collection searched is small on purpose (the repository's `docs/`,
 * ingested by the same CLI): what is measured is starting the process and
 * importing, not scoring. `node -e 0` is run the same way as the floor.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { round, since } from "./measure.js";
import { repoRoot } from "./open.js";

/** Repeated runs of one command line. */
export interface StartupCase {
  name: string;
  command: string;
  runs_ms: number[];
  median_ms: number;
  min_ms: number;
  max_ms: number;
  /** Interquartile range (p75 − p25): the spread of the middle half. */
  iqr_ms: number;
}

/** What the start-up stage measured. */
export interface StartupResult {
  runs: number;
  /** When dist/ was built is what is measured: run `npm run build` first. */
  cli: string;
  cases: StartupCase[];
}

/** Runs per case: the issue asks for the median of 10. */
export const STARTUP_RUNS = 10;

function quantile(sorted: number[], q: number): number {
  const i = (sorted.length - 1) * q;
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (i - lo);
}

/** Time `node <args>` `runs` times (one unmeasured warm-up run first: the OS page cache, not our code). */
function timeRuns(name: string, args: string[], cwd: string, runs: number): StartupCase {
  const run = (): number => {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, args, { cwd, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const wall = since(t0);
    if (res.status !== 0) throw new Error(`startup: \`node ${args.join(" ")}\` exited ${res.status}: ${res.stderr.slice(0, 500)}`);
    return wall;
  };
  run();
  const runs_ms = Array.from({ length: runs }, () => round(run(), 1));
  const sorted = [...runs_ms].sort((a, b) => a - b);
  return {
    name,
    command: `node ${args.map((a) => (a.includes(" ") ? `"${a}"` : a)).join(" ")}`,
    runs_ms,
    median_ms: round(quantile(sorted, 0.5), 1),
    min_ms: sorted[0]!,
    max_ms: sorted[sorted.length - 1]!,
    iqr_ms: round(quantile(sorted, 0.75) - quantile(sorted, 0.25), 1),
  };
}

/**
 * Ingest the repository's docs/ into `workDir` with the CLI, then time `node -e 0`,
 * `grk --version` and a BM25 `grk search … --json`.
 */
export function measureStartup(workDir: string, runs = STARTUP_RUNS): StartupResult {
  const root = repoRoot();
  const main = join(root, "dist", "cli", "main.js");
  if (!existsSync(main)) throw new Error("startup: dist/cli/main.js is missing; run `npm run build` first");
  const indexDir = join(workDir, "startup-index");
  const ingest = spawnSync(process.execPath, [main, "ingest", join(root, "docs"), "--index-dir", indexDir, "--collection", "startup"], {
    cwd: workDir,
    encoding: "utf8",
  });
  if (ingest.status !== 0) throw new Error(`startup: ingest of docs/ failed: ${ingest.stderr.slice(0, 500)}`);
  const cases = [
    timeRuns("node -e 0 (floor)", ["-e", "0"], workDir, runs),
    timeRuns("grk --version", [main, "--version"], workDir, runs),
    timeRuns("grk search (BM25, --json)", [main, "search", "writer lock timeout", "--index-dir", indexDir, "--collection", "startup", "--json"], workDir, runs),
  ];
  return { runs, cli: main, cases };
}
