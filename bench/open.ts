/**
 * Time to open a collection and answer a first query, as a user meets it: in a
 * fresh process (nothing cached in memory, no index rebuilt at open).
 *
 * Two measurements:
 * - `script`: a fresh `node` process running the `open` task (child.ts), which
 *   imports the library, opens the collection and runs one search; it reports
 *   its own phases (process start → ready, import, open, first query) and the
 *   parent records the wall time from spawn to exit;
 * - `cli`: a fresh `node dist/cli/main.js search … --json` process (the built
 *   CLI, when `dist/` exists), wall time from spawn to exit.
 * The OS page cache is warm (the collection was just written or read); a cold
 * disk would add its read time.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { round, since } from "./measure.js";
import type { CollectionRef } from "./ours.js";

/** Arguments of {@link openTask}. */
export interface OpenArgs extends CollectionRef {
  query: string;
}

/** Phases of opening and first query, inside one process. */
export interface OpenPhases {
  /** From process start to the task starting (Node boot + loading the bench runner). */
  process_ready_ms: number;
  /** Importing the library. */
  import_ms: number;
  /** await openCollection(). */
  open_ms: number;
  /** The first search. */
  first_query_ms: number;
  /** open + first query: the part the library controls. */
  open_and_first_query_ms: number;
  hits: number;
}

/** Import the library, open the collection, run one search; report each phase. */
export async function openTask(args: OpenArgs): Promise<OpenPhases> {
  const ready = performance.now();
  const t0 = performance.now();
  const lib = await import("../src/index.js");
  const imported = since(t0);
  const t1 = performance.now();
  const col = await lib.openCollection({ indexDir: args.indexDir, collection: args.collection });
  const opened = since(t1);
  const t2 = performance.now();
  const hits = await col.search(args.query, { topK: 10 });
  const queried = since(t2);
  await col.close();
  return {
    process_ready_ms: round(ready, 1),
    import_ms: round(imported, 1),
    open_ms: round(opened, 2),
    first_query_ms: round(queried, 2),
    open_and_first_query_ms: round(opened + queried, 2),
    hits: hits.length,
  };
}

/** The repository root (holds groundkit's package.json), from this file's location. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const pkg = join(dir, "package.json");
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, "utf8")) as { name?: string }).name === "groundkit") return dir;
    const up = dirname(dir);
    if (up === dir) throw new Error("bench: cannot find the groundkit repository root");
    dir = up;
  }
}

/** One fresh-process CLI search, timed from spawn to exit. */
export interface CliRun {
  wall_ms: number;
  exit_code: number | null;
  hits: number;
}

/** What the CLI measurement found. */
export interface CliOpenResult {
  command: string;
  /** When dist/ was built (the CLI measured is that build). */
  dist_built_at: string;
  runs: CliRun[];
  median_wall_ms: number;
}

/**
 * Run `node dist/cli/main.js search <query> --json` `runs` times, each a fresh
 * process; undefined when dist/ has not been built.
 */
export function measureCliOpen(ref: CollectionRef, query: string, runs: number): CliOpenResult | undefined {
  const main = join(repoRoot(), "dist", "cli", "main.js");
  if (!existsSync(main)) return undefined;
  const args = [main, "search", query, "--index-dir", resolve(ref.indexDir), "--collection", ref.collection, "--json"];
  const out: CliRun[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const res = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    const wall = since(t0);
    let hits = -1;
    try {
      hits = (JSON.parse(res.stdout) as { results: unknown[] }).results.length;
    } catch {
      // not JSON: the exit code tells what happened
    }
    out.push({ wall_ms: round(wall, 1), exit_code: res.status, hits });
  }
  const sorted = out.map((r) => r.wall_ms).sort((a, b) => a - b);
  return {
    command: `node dist/cli/main.js search "<query>" --index-dir <dir> --collection ${ref.collection} --json`,
    dist_built_at: statSync(main).mtime.toISOString(),
    runs: out,
    median_wall_ms: sorted[Math.floor(sorted.length / 2)]!,
  };
}
