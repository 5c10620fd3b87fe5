/**
 * `npm run bench:history [-- options]` (HELP below): the cost of document history
 * (docs/decisions/0031-document-history.md) on a real repository's own history. The last N commits
 * of the repository are replayed oldest first: each commit's tree of the
 * given paths is written to a folder (files that commit deleted disappear) and ingested into two SQLite
 * collections, one with history on (the defaults) and one with it off. Reported: ingest time of each
 * (summed over the replay, and the median per commit), the history kept (versions, distinct blocks, bytes),
 * bytes per kept version, and both files' sizes. Writes bench/results/history-replay.json and .md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { openCollection, parseHistorySpec, type Collection } from "../src/collection/index.js";
import { integerOption, parseOptions, usage } from "./cli-options.js";

const HELP = `usage: npm run bench:history [-- options]
  --repo DIR       the repository whose history is replayed (default: the current folder)
  --commits N      its last N first-parent commits, at least 2 (default 50)
  --paths a,b,…    the paths of each commit's tree written and ingested (default docs,src)
  --out DIR        results folder (default bench/results)
`;

const { values } = parseOptions({
  options: {
    repo: { type: "string", default: process.cwd() },
    commits: { type: "string", default: "50" },
    paths: { type: "string", default: "docs,src" },
    out: { type: "string", default: "bench/results" },
  },
}, HELP);
const repo = resolve(values.repo);
// The first commit is a full ingest, left out of the per-commit median: one commit leaves that median empty.
const count = integerOption("commits", values.commits, 2);
const paths = values.paths
  .split(",")
  .map((p) => p.trim())
  .filter((p) => p !== "");
if (paths.length === 0) usage("--paths must name at least one path of the repository, e.g. docs,src");

/** `git -C repo …`'s output; a failure (not a repository, no commits, no git) is a usage line with git's first line of complaint. */
function git(...args: string[]): string {
  const r = spawnSync("git", ["-C", repo, ...args], { encoding: "utf8", maxBuffer: 1 << 28 });
  if (r.status !== 0) {
    const why = r.error?.message ?? (r.stderr.trim().split("\n")[0] || `git exited with ${r.status}`);
    usage(`--repo ${repo}: git ${args[0]} failed: ${why}`);
  }
  return r.stdout;
}
if (git("ls-tree", "--name-only", "HEAD", "--", ...paths).trim() === "") usage(`none of --paths ${paths.join(",")} is in ${repo}'s HEAD`);
const commits = git("rev-list", "--first-parent", `--max-count=${count}`, "HEAD").trim().split("\n").reverse();
if (commits.length < 2) usage(`--repo ${repo} has ${commits.length} first-parent commit; the replay needs at least 2`);

const work = mkdtempSync(join(tmpdir(), "grk-history-bench-"));
const tree = join(work, "tree");
const indexDir = join(work, "index");

/** Write `commit`'s tree of the paths to the folder, replacing what the previous commit left. */
function checkout(commit: string): void {
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });
  const present = paths.filter((p) => git("ls-tree", "--name-only", commit, p).trim() !== "");
  if (present.length === 0) return;
  const tar = execFileSync("git", ["-C", repo, "archive", "--format=tar", commit, ...present], { maxBuffer: 1 << 30 });
  execFileSync("tar", ["-x", "-C", tree], { input: tar });
}

async function timedIngest(col: Collection, opts: Parameters<Collection["ingest"]>[1] = {}): Promise<number> {
  const t0 = performance.now();
  const summary = await col.ingest([tree], opts);
  if (summary.failed.length > 0) throw new Error(`ingest failed: ${JSON.stringify(summary.failed.slice(0, 3))}`);
  return performance.now() - t0;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const on = await openCollection({ indexDir, collection: "history_on", create: true });
const off = await openCollection({ indexDir, collection: "history_off", create: true });
const times = { on: [] as number[], off: [] as number[] };
let closed = false;
try {
  for (const [i, commit] of commits.entries()) {
    checkout(commit);
    // The two collections alternate who goes first, so neither always gets the warm file cache.
    const order = i % 2 === 0 ? (["on", "off"] as const) : (["off", "on"] as const);
    for (const which of order) {
      const col = which === "on" ? on : off;
      // Recorded once, by the first ingest: the retention applies from then on.
      const opts = i === 0 && which === "off" ? { history: parseHistorySpec("off") } : {};
      times[which].push(await timedIngest(col, opts));
    }
    process.stderr.write(`\r${i + 1}/${commits.length} commits`);
  }
  process.stderr.write("\n");
  const health = await on.historyHealth();
  const offHealth = await off.historyHealth();
  const statusOn = await on.status();
  // Closed first, so each file's WAL is checkpointed into it and the sizes compare like for like.
  await on.close();
  await off.close();
  closed = true;
  const size = (name: string): number => {
    let n = 0;
    for (const ext of [".sqlite3", ".sqlite3-wal"]) {
      try {
        n += statSync(join(indexDir, `${name}${ext}`)).size;
      } catch {
        // no WAL left
      }
    }
    return n;
  };
  const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);
  const result = {
    repo,
    paths,
    commits: commits.length,
    first: commits[0],
    last: commits[commits.length - 1],
    documents_now: statusOn.documents,
    chunks_now: statusOn.chunks,
    ingest_ms_total: { history_on: Math.round(sum(times.on)), history_off: Math.round(sum(times.off)) },
    ingest_ms_median_per_commit: { history_on: Math.round(median(times.on.slice(1))), history_off: Math.round(median(times.off.slice(1))) },
    history: { versions: health.versions, blocks: health.blocks, bytes: health.bytes, dangling: health.dangling, mismatched: health.mismatched },
    history_off_versions: offHealth.versions,
    bytes_per_version: health.versions > 0 ? Math.round(health.bytes / health.versions) : 0,
    file_bytes: { history_on: size("history_on"), history_off: size("history_off") },
  };
  mkdirSync(values.out, { recursive: true });
  writeFileSync(join(values.out, "history-replay.json"), JSON.stringify(result, null, 2) + "\n");
  const overheadPct = (a: number, b: number): string => `${(((a - b) / b) * 100).toFixed(1)}%`;
  const md = [
    `# History overhead: ${commits.length} commits of ${paths.join(", ")} replayed`,
    "",
    `Repository ${repo}, commits ${result.first?.slice(0, 10)}..${result.last?.slice(0, 10)}; ${result.documents_now} documents, ${result.chunks_now} chunks at the end.`,
    "",
    "| | history on (defaults) | history off | overhead |",
    "|---|---|---|---|",
    `| ingest time, whole replay | ${result.ingest_ms_total.history_on} ms | ${result.ingest_ms_total.history_off} ms | ${overheadPct(result.ingest_ms_total.history_on, result.ingest_ms_total.history_off)} |`,
    `| ingest time, median per commit | ${result.ingest_ms_median_per_commit.history_on} ms | ${result.ingest_ms_median_per_commit.history_off} ms | ${overheadPct(result.ingest_ms_median_per_commit.history_on, result.ingest_ms_median_per_commit.history_off)} |`,
    `| collection file | ${result.file_bytes.history_on} B | ${result.file_bytes.history_off} B | ${overheadPct(result.file_bytes.history_on, result.file_bytes.history_off)} |`,
    "",
    `History kept: ${result.history.versions} previous versions, ${result.history.blocks} distinct blocks, ${result.history.bytes} bytes of text ` +
      `(${result.bytes_per_version} bytes per version); integrity: ${result.history.dangling} dangling, ${result.history.mismatched} mismatched. ` +
      `History off kept ${result.history_off_versions} versions.`,
    "",
  ].join("\n");
  writeFileSync(join(values.out, "history-replay.md"), md);
  process.stdout.write(md);
} finally {
  if (!closed) {
    await on.close();
    await off.close();
  }
  rmSync(work, { recursive: true, force: true });
}
