/**
 * `npm run torture -- [--kills N] [--seed S] [--json] [--out FILE] [--dense] [--windows] [--store sqlite|postgres]`
 *
 * Crash torture: the real CLI (`node dist/cli/main.js ingest …`) ingests a
 * corpus of every source class (files, and URL pages from a local
 * 127.0.0.1 server with --allow-private-network) whose documents flip between
 * versions, and is SIGKILLed at chosen moments: at a random time, while a
 * large document is being chunked, inside a store transaction (statements run,
 * not committed), while a snapshot is being written, between the row commit
 * and the snapshot rename, and (with --dense; --windows embeds one vector per window of a long chunk) while embedding and between the
 * ANN index's data file and its header. After each kill
 * the collection is opened and checked: integrity_check ok, no chunk / lexical
 * row / vector / snapshot without its document, every document at its old or
 * its new state with exactly the chunks a clean run gives that state. Then the
 * next ingest runs to completion and must converge to the clean run's index
 * (which also sweeps staged snapshots a kill left behind). With --dense, after
 * every kill and every recovery, dense search through the HNSW index must answer
 * exactly what exact search answers (fuzz/ann-check.ts), and after a recovery the
 * saved index must be current.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { pathToFileURL } from "node:url";
import { cliPath, helperScript, productJsRoot } from "./helper-script.js";
import { structuralViolations, type IndexInspection, type StoredDocState } from "./index-check.js";
import { buildReference, dbPath as dbFile, ingestArgs, ingestClean, inspectCollection, type CorpusEnv, type Reference } from "./reference-index.js";
import { parseStoreKind, startStoreTarget, type StoreKind } from "./store-target.js";
import { mixSeed, Rng } from "./rng.js";
import { buildTortureCorpus, isUrlDoc, placeCorpus, sourceOf, VERSIONS, type CorpusSize, type TortureDoc } from "./torture-corpus.js";
import { PageServer } from "./world.js";
import { annViolations } from "./ann-check.js";
import { emitReport, runIfMain } from "./tool-cli.js";

/** Where a kill is aimed. */
export const KILL_MODES = ["random", "chunking", "transaction", "snapshot-write", "snapshot-rename", "embedding", "ann-save"] as const;
export type KillMode = (typeof KILL_MODES)[number];

/** Options of {@link runTorture}. */
export interface TortureOptions {
  kills: number;
  seed: number;
  /** Also embed (ingest --dense), adding kills while embedding. */
  dense?: boolean | undefined;
  /** With `dense`: one vector per window of a long chunk (window policy "max") instead of one per chunk. */
  windows?: boolean | undefined;
  corpus?: CorpusSize | undefined;
  tmp?: string | undefined;
  /** The store the collection lives in (default sqlite; postgres starts a throwaway cluster). */
  store?: StoreKind | undefined;
  /** Every how many kills the next killed run starts from the partial state of the last one (no recovery in between). */
  compoundEvery?: number | undefined;
  onRound?: ((r: RoundRecord) => void) | undefined;
}

/** One killed (or finished) ingest run and what was found after it. */
export interface RoundRecord {
  round: number;
  mode: KillMode;
  /** The child died of SIGKILL (otherwise it finished first). */
  killed: boolean;
  exit: string;
  /** Documents at the new version / still at the old one right after the kill. */
  atNew: number;
  atOld: number;
  tempSnapshots: number;
  snapshotsBehind: number;
  violations: string[];
  recovered: boolean;
  converged: boolean | undefined;
}

/** The torture's figures (the shape written by `--json` / `--out`). */
export interface TortureReport {
  tool: "torture";
  schema_version: 1;
  seed: number;
  kills_requested: number;
  started_at: string;
  duration_ms: number;
  node: string;
  platform: string;
  corpus: { documents: number; by_kind: Record<string, number>; bytes: number };
  dense: boolean;
  store: StoreKind;
  rounds: number;
  kills: number;
  completed_before_kill: number;
  by_mode: Record<string, { rounds: number; kills: number; partial: number }>;
  /** Kills after which documents were found both at old and new versions. */
  partial_states: number;
  temp_snapshots_after_kill: number;
  /** Kills after which scratch rows of the dead walk were left (PostgreSQL's walk_seen; the next ingest must clear them). */
  scratch_rows_after_kill: number;
  /** Generation counter checks made (after every kill and every recovery: never backwards, ahead whenever a document changed). */
  generation_checks: number;
  /** Kills after which a snapshot document's row was ahead of its snapshot file (repaired by the next ingest). */
  snapshots_behind_after_kill: number;
  recoveries: number;
  converged: number;
  structures_checked: string[];
  violations: Array<{ round: number; mode: string; violations: string[] }>;
  kills_survived: number;
  ok: boolean;
}

interface Env extends CorpusEnv {
  indexDir: string;
  hooks: string;
}

const COLLECTION = "torture";

function dbPath(indexDir: string): string {
  return dbFile(indexDir, COLLECTION);
}

/** The killed collection's state, from whichever store it lives in. */
function inspect(env: Env): Promise<IndexInspection> {
  return inspectCollection(env, env.indexDir);
}

interface Beacon {
  event: string;
  n: number;
  stop: boolean;
  detail: string;
  at: number;
}

/**
 * Run an ingest with the hooks and kill it: at the STOP beacon, after `delayMs`
 * from the start, or `delayMs` after the "open" beacon of `openPath`.
 */
function ingestAndKill(
  env: Env,
  plan: { stop?: string | undefined; delayMs?: number | undefined; openPath?: string | undefined },
): Promise<{ killed: boolean; exit: string; beacons: Beacon[] }> {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, ["--import", pathToFileURL(env.hooks).href, ...ingestArgs(env, env.indexDir)], {
      cwd: env.work,
      stdio: ["ignore", "ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        GRK_TORTURE_STOP: plan.stop ?? "",
        GRK_TORTURE_DOCS: env.docsDir,
        GRK_TORTURE_REQUIRE_FROM: join(productJsRoot(), "collection", "index.js"),
        // The CLI runs dist/: hook the very module instance it loads.
        GRK_TORTURE_PG_CONNECTION: env.store?.kind === "postgres" ? pathToFileURL(join(dirname(cliPath()), "..", "store", "postgres", "pg-pool.js")).href : "",
      },
    });
    const beacons: Beacon[] = [];
    let stderr = "";
    child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
    let timer: NodeJS.Timeout | undefined;
    const kill = (): void => {
      child.kill("SIGKILL");
    };
    if (plan.delayMs !== undefined && plan.openPath === undefined) timer = setTimeout(kill, plan.delayMs);
    createInterface({ input: child.stdio[3] as NodeJS.ReadableStream }).on("line", (line) => {
      const [event = "", n = "0", stop = "-", ...rest] = line.split(" ");
      const b = { event, n: Number(n), stop: stop === "STOP", detail: rest.join(" "), at: performance.now() - started };
      beacons.push(b);
      if (b.stop) kill();
      if (plan.openPath !== undefined && event === "open" && b.detail === plan.openPath && !timer) timer = setTimeout(kill, plan.delayMs ?? 0);
    });
    child.on("exit", (code, signal) => {
      if (timer) clearTimeout(timer);
      resolve({ killed: signal === "SIGKILL", exit: signal ?? `exit ${code}${code ? `: ${stderr.trim().split("\n").pop()}` : ""}`, beacons });
    });
  });
}

function sameState(a: StoredDocState, b: StoredDocState, dense: boolean): boolean {
  return a.contentHash === b.contentHash && a.chunks.join("|") === b.chunks.join("|") && (!dense || a.vectors === a.chunks.length);
}

/** Which version of `source` a stored state is, or undefined when it is none of them (or a torn mix). */
function versionOf(ref: Reference, source: string, state: StoredDocState, dense: boolean): number | undefined {
  for (const [v, r] of ref.get(source) ?? []) if (sameState(state, r, dense)) return v;
  return undefined;
}

/** Check after a kill: returns violations and how many documents are at old / new. */
function checkAfterKill(
  env: Env,
  ref: Reference,
  x: IndexInspection,
  before: Map<string, number>,
  target: Map<string, number>,
): { violations: string[]; atNew: number; atOld: number } {
  const violations = structuralViolations(x);
  let atNew = 0;
  let atOld = 0;
  for (const doc of env.docs) {
    const source = sourceOf(doc, env.docsDir, env.server);
    const state = x.docs.get(source);
    if (!state) {
      violations.push(`${doc.key}: document missing after the kill`);
      continue;
    }
    const v = versionOf(ref, source, state, env.dense);
    if (v === undefined) {
      violations.push(`${doc.key}: stored state is neither a clean version nor consistent (hash ${state.contentHash.slice(0, 12)}, ${state.chunks.length} chunks)`);
    } else if (v === target.get(doc.key)) {
      atNew++;
    } else if (v === before.get(doc.key)) {
      atOld++;
    } else {
      violations.push(`${doc.key}: at version ${v}, expected its old ${before.get(doc.key)} or new ${target.get(doc.key)}`);
    }
  }
  return { violations, atNew, atOld };
}

/** Versions the stored documents are at (for the next round's "old" state). */
function storedVersions(env: Env, ref: Reference, x: IndexInspection): Map<string, number> {
  const out = new Map<string, number>();
  for (const doc of env.docs) {
    const source = sourceOf(doc, env.docsDir, env.server);
    const state = x.docs.get(source);
    const v = state ? versionOf(ref, source, state, env.dense) : undefined;
    if (v !== undefined) out.set(doc.key, v);
  }
  return out;
}

function defaultScratch(): string {
  return tmpdir();
}

/** Run the torture. */
export async function runTorture(opts: TortureOptions): Promise<TortureReport> {
  const t0 = performance.now();
  const startedAt = new Date().toISOString();
  const rng = new Rng(mixSeed(opts.seed, 0x70a7));
  const work = mkdtempSync(join(opts.tmp ?? defaultScratch(), "grk-torture-"));
  if (opts.dense && opts.store === "postgres") throw new Error("--dense checks the SQLite ANN index; the PostgreSQL store has none to torture");
  const server = await PageServer.start();
  const store = await startStoreTarget(opts.store ?? "sqlite");
  // Embedding runs at a few chunks per second here, so a dense torture uses a small corpus.
  const size = opts.corpus ?? (opts.dense ? { small: 10, big: 1, bigBytes: 20_000 } : { small: 120, big: 3, bigBytes: 1_500_000 });
  const docs = await buildTortureCorpus(size);
  const env: Env = {
    work,
    docsDir: join(work, "docs"),
    indexDir: join(work, "index"),
    server,
    hooks: await helperScript("torture-hooks", work),
    docs,
    collection: COLLECTION,
    dense: opts.dense ?? false,
    store,
  };
  // The CLI reads ./groundkit.config.json: every ingest of the run (reference and killed) embeds one vector per window.
  if (env.dense && opts.windows) writeFileSync(join(work, "groundkit.config.json"), JSON.stringify({ embedding: { provider: "local", window: "max" } }));
  const modes = KILL_MODES.filter((m) => (m !== "embedding" && m !== "ann-save") || env.dense);
  // Dense: the HNSW index is used however small the corpus (and built by every ingest's sync), so kills hit it.
  if (env.dense) process.env.GROUNDKIT_ANN_MIN_VECTORS ??= "1";
  const report: TortureReport = {
    tool: "torture",
    schema_version: 1,
    seed: opts.seed,
    kills_requested: opts.kills,
    started_at: startedAt,
    duration_ms: 0,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    corpus: {
      documents: docs.length,
      by_kind: docs.reduce<Record<string, number>>((m, d) => ((m[d.kind] = (m[d.kind] ?? 0) + 1), m), {}),
      bytes: docs.reduce((n, d) => n + d.versions.get(1)!.length, 0),
    },
    dense: env.dense,
    store: env.store!.kind,
    rounds: 0,
    kills: 0,
    completed_before_kill: 0,
    by_mode: Object.fromEntries(modes.map((m) => [m, { rounds: 0, kills: 0, partial: 0 }])),
    partial_states: 0,
    temp_snapshots_after_kill: 0,
    scratch_rows_after_kill: 0,
    generation_checks: 0,
    snapshots_behind_after_kill: 0,
    recoveries: 0,
    converged: 0,
    structures_checked: [],
    violations: [],
    kills_survived: 0,
    ok: false,
  };
  try {
    const ref = await buildReference(env);
    // Start from a clean index at version 1.
    let current = new Map(docs.map((d) => [d.key, 1]));
    placeCorpus(docs, current, env.docsDir, server);
    const first = await ingestClean(env, env.indexDir);
    if (first.code !== 0) throw new Error(`the initial ingest failed: ${first.stderr}`);
    let stored = new Map(current);
    // Calibrate: how long a run that changes everything takes, and how long big documents take to load and chunk.
    const calibration = await calibrate(env, ref, current);
    current = calibration.current;
    stored = new Map(current);
    let generation = (await inspect(env)).generation;

    const compoundEvery = opts.compoundEvery ?? 4;
    for (let round = 0; report.kills < opts.kills && round < opts.kills * 3; round++) {
      const mode = modes[round % modes.length]!;
      const target = nextVersions(rng, docs, current, mode);
      placeCorpus(docs, target, env.docsDir, server);
      const plan = planKill(rng, mode, env, docs, stored, target, calibration);
      const run = await ingestAndKill(env, plan);
      const x = await inspect(env);
      for (const s of x.structures) if (!report.structures_checked.includes(s)) report.structures_checked.push(s);
      const { violations, atNew, atOld } = checkAfterKill(env, ref, x, stored, target);
      // The next open must find the ANN index behind or ahead and answer as exact search does.
      if (env.dense) violations.push(...annViolations(dbPath(env.indexDir), round, false));
      const afterKill = storedVersions(env, ref, x);
      violations.push(...generationViolations(generation, x.generation, changedCount(env, stored, afterKill)));
      report.generation_checks++;
      generation = x.generation;
      const record: RoundRecord = {
        round,
        mode,
        killed: run.killed,
        exit: run.exit,
        atNew,
        atOld,
        tempSnapshots: x.tempSnapshots.length,
        snapshotsBehind: x.snapshotMismatches.length,
        violations,
        recovered: false,
        converged: undefined,
      };
      report.rounds++;
      report.by_mode[mode]!.rounds++;
      if (run.killed) {
        report.kills++;
        report.by_mode[mode]!.kills++;
        if (atNew > 0 && atOld > 0) {
          report.partial_states++;
          report.by_mode[mode]!.partial++;
        }
        if (x.tempSnapshots.length) report.temp_snapshots_after_kill++;
        if (x.scratchRows) report.scratch_rows_after_kill++;
        if (x.snapshotMismatches.length) report.snapshots_behind_after_kill++;
      } else {
        report.completed_before_kill++;
        if (run.exit !== "exit 0") violations.push(`the ingest ended with ${run.exit} instead of being killed or succeeding`);
      }
      current = target;
      stored = afterKill;
      // Every few kills, let the next killed run start from this partial state.
      const compound = run.killed && (round + 1) % compoundEvery === 0 && report.kills < opts.kills;
      if (!compound) {
        const res = await ingestClean(env, env.indexDir);
        record.recovered = true;
        report.recoveries++;
        const y = await inspect(env);
        const conv = convergenceViolations(env, ref, y, current);
        conv.push(...generationViolations(generation, y.generation, changedCount(env, stored, current)));
        report.generation_checks++;
        generation = y.generation;
        if (env.dense) conv.push(...annViolations(dbPath(env.indexDir), round, true));
        if (res.code !== 0) conv.push(`the next ingest failed (${res.code}): ${res.stderr.trim().split("\n").pop()}`);
        record.converged = conv.length === 0;
        if (record.converged) report.converged++;
        violations.push(...conv.map((v) => `after the next ingest: ${v}`));
        stored = new Map(current);
      }
      if (violations.length) report.violations.push({ round, mode, violations: violations.slice(0, 20) });
      else if (run.killed) report.kills_survived++;
      opts.onRound?.(record);
    }
  } finally {
    await server.close();
    await store.stop();
    rmSync(work, { recursive: true, force: true });
  }
  report.duration_ms = Math.round(performance.now() - t0);
  report.ok = report.violations.length === 0 && report.kills >= opts.kills;
  return report;
}

/** Documents whose version differs between two states. */
function changedCount(env: Env, before: Map<string, number>, after: Map<string, number>): number {
  return env.docs.filter((d) => before.get(d.key) !== after.get(d.key)).length;
}

/**
 * The generation counter (readers' caches key on it) after a run: never
 * backwards, never missing once documents exist, and ahead of where it was
 * whenever a committed change reached any document (it is bumped in the
 * document's own transaction).
 */
function generationViolations(before: number | undefined, after: number | undefined, changed: number): string[] {
  if (after === undefined) return before === undefined ? [] : [`the generation counter is gone (was ${before})`];
  if (!Number.isSafeInteger(after)) return [`the generation counter is not an integer: ${after}`];
  if (before !== undefined && after < before) return [`the generation counter went back from ${before} to ${after}`];
  if (changed > 0 && after === before) return [`${changed} documents changed but the generation counter stayed at ${after}`];
  return [];
}

/** After a completed ingest: every document exactly at its current version, nothing left over. */
function convergenceViolations(env: Env, ref: Reference, x: IndexInspection, current: Map<string, number>): string[] {
  const out = structuralViolations(x);
  if (x.tempSnapshots.length) out.push(`${x.tempSnapshots.length} staged snapshot temp files not swept`);
  if (x.scratchRows) out.push(`${x.scratchRows} walk_seen rows of walks that are over (left by a killed ingest and never swept)`);
  if (x.snapshotMismatches.length) out.push(`${x.snapshotMismatches.length} snapshots that do not hold their document's content`);
  for (const doc of env.docs) {
    const source = sourceOf(doc, env.docsDir, env.server);
    const state = x.docs.get(source);
    const want = ref.get(source)!.get(current.get(doc.key)!)!;
    if (!state) out.push(`${doc.key}: missing`);
    else if (!sameState(state, want, env.dense)) out.push(`${doc.key}: differs from a clean run of version ${current.get(doc.key)}`);
  }
  if (x.docs.size !== env.docs.length) out.push(`${x.docs.size} documents indexed, ${env.docs.length} expected`);
  return out;
}

interface Calibration {
  current: Map<string, number>;
  /** Duration of a run where every document changed. */
  fullRunMs: number;
  /** Per big document: ms from its open to the next transaction beacon (load + chunk). */
  chunkWindowMs: Map<string, number>;
  /** Writing transactions of that run (the writer commits in batches: fewer than the documents it changed). */
  transactions: number;
}

async function calibrate(env: Env, ref: Reference, current: Map<string, number>): Promise<Calibration> {
  const target = new Map(env.docs.map((d) => [d.key, current.get(d.key) === 1 ? 2 : 1]));
  placeCorpus(env.docs, target, env.docsDir, env.server);
  const started = performance.now();
  const run = await ingestAndKill(env, {});
  const fullRunMs = performance.now() - started;
  if (run.killed || run.exit !== "exit 0") throw new Error(`the calibration ingest failed: ${run.exit}`);
  const x = await inspect(env);
  const bad = convergenceViolations(env, ref, x, target);
  if (bad.length) throw new Error(`the calibration ingest did not give a clean index: ${bad.join("; ")}`);
  const chunkWindowMs = new Map<string, number>();
  for (const [i, b] of run.beacons.entries()) {
    if (b.event !== "open") continue;
    const tx = run.beacons.slice(i + 1).find((n) => n.event === "tx");
    if (tx) chunkWindowMs.set(b.detail, tx.at - b.at);
  }
  return { current: target, fullRunMs, chunkWindowMs, transactions: run.beacons.filter((b) => b.event === "tx").length };
}

/** The versions for the next run: a random ~40% of documents change, plus what the kill mode needs to change. */
function nextVersions(rng: Rng, docs: TortureDoc[], current: Map<string, number>, mode: KillMode): Map<string, number> {
  const next = new Map(current);
  const flip = (d: TortureDoc): void => {
    const options = VERSIONS.filter((v) => v !== current.get(d.key));
    next.set(d.key, rng.pick(options));
  };
  for (const d of docs) if (rng.chance(0.4)) flip(d);
  const needs = mode === "chunking" ? "big-md" : mode.startsWith("snapshot") ? "url-big" : undefined;
  const must = needs ? docs.find((d) => d.kind === needs) : undefined;
  if (must && next.get(must.key) === current.get(must.key)) flip(must);
  return next;
}

function planKill(
  rng: Rng,
  mode: KillMode,
  env: Env,
  docs: TortureDoc[],
  stored: Map<string, number>,
  target: Map<string, number>,
  cal: Calibration,
): { stop?: string; delayMs?: number; openPath?: string } {
  const changed = docs.filter((d) => stored.get(d.key) !== target.get(d.key));
  switch (mode) {
    case "random":
      // Spread over roughly how long a run changing this many documents takes.
      return { delayMs: Math.floor(rng.float() * cal.fullRunMs * Math.max(0.3, changed.length / docs.length)) };
    case "chunking": {
      const big = changed.filter((d) => d.kind === "big-md");
      const doc = big.length ? rng.pick(big) : docs.find((d) => d.kind === "big-md")!;
      const path = sourceOf(doc, env.docsDir, env.server);
      return { openPath: path, delayMs: Math.floor(rng.float() * (cal.chunkWindowMs.get(path) ?? 50)) };
    }
    case "transaction": {
      // Aim inside the run: about as many transactions as the calibration run had, scaled by how much changes.
      const expected = cal.transactions > 0 ? Math.ceil((cal.transactions * changed.length) / docs.length) : changed.length;
      return { stop: `tx:${rng.int(0, Math.max(1, Math.min(changed.length, expected)))}` };
    }
    case "snapshot-write":
      return { stop: `snapshot-write:${rng.int(0, Math.max(1, changed.filter(isUrlDoc).length))}` };
    case "snapshot-rename":
      return { stop: `snapshot-rename:${rng.int(0, Math.max(1, changed.filter(isUrlDoc).length))}` };
    case "embedding":
      return { stop: `embed:${rng.int(1, 6)}` };
    case "ann-save":
      return { stop: "ann-save:0" };
  }
}

interface Args {
  kills: number;
  seed: number;
  json: boolean;
  out?: string;
  dense: boolean;
  windows: boolean;
  tmp?: string;
  store: StoreKind;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { kills: 20, seed: 1, json: false, dense: false, windows: false, store: "sqlite" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) usage(`${a} needs a value`);
      return v;
    };
    if (a === "--kills") args.kills = positive(a, value());
    else if (a === "--seed") args.seed = positive(a, value(), 0);
    else if (a === "--json") args.json = true;
    else if (a === "--out") args.out = value();
    else if (a === "--dense") args.dense = true;
    else if (a === "--windows") args.windows = args.dense = true;
    else if (a === "--tmp") args.tmp = value();
    else if (a === "--store") args.store = parseStoreKind(value(), usage);
    else usage(`unknown argument ${a}`);
  }
  return args;
}

function positive(name: string, v: string, min = 1): number {
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n < min) usage(`${name} needs an integer >= ${min}`);
  return n;
}

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: torture [--kills N] [--seed S] [--json] [--out FILE] [--dense] [--windows] [--tmp DIR] [--store sqlite|postgres]\n`);
  process.exit(2);
}

/** Human-readable summary. */
export function renderTortureText(r: TortureReport, command: string): string {
  const lines = [
    `crash torture: ${r.kills} kills of ${r.kills_requested} requested (${r.rounds} rounds, ${r.completed_before_kill} ingests finished before their kill), seed ${r.seed}`,
    `store: ${r.store}`,
    `corpus: ${r.corpus.documents} documents (${Object.entries(r.corpus.by_kind).map(([k, n]) => `${n} ${k}`).join(", ")}), ${(r.corpus.bytes / 1e6).toFixed(1)} MB per version${r.dense ? ", dense" : ""}`,
    `time: ${(r.duration_ms / 1000).toFixed(1)} s`,
    "",
    `${"kill moment".padEnd(18)} ${"rounds".padStart(7)} ${"kills".padStart(6)} ${"partial".padStart(8)}`,
    ...Object.entries(r.by_mode).map(([m, v]) => `${m.padEnd(18)} ${String(v.rounds).padStart(7)} ${String(v.kills).padStart(6)} ${String(v.partial).padStart(8)}`),
    "",
    `kills that left documents at both old and new versions: ${r.partial_states}`,
    `kills that left a staged snapshot temp file: ${r.temp_snapshots_after_kill} (all swept by the next ingest unless listed below)`,
    `kills that left a snapshot behind its committed document row: ${r.snapshots_behind_after_kill} (repaired by the next ingest unless listed below)`,
    `kills that left walk_seen rows of the dead walk: ${r.scratch_rows_after_kill} (cleared by the next ingest unless listed below)`,
    `generation counter checks: ${r.generation_checks} (never backwards, ahead after every committed change)`,
    `next ingests run: ${r.recoveries}, converged to the clean run's index: ${r.converged}`,
    `structures checked: ${r.structures_checked.join(", ")}`,
    `kills survived: ${r.kills_survived}`,
    r.violations.length ? `VIOLATIONS in ${r.violations.length} rounds:` : "violations: none",
    ...r.violations.slice(0, 20).flatMap((v) => [`  round ${v.round} (${v.mode}):`, ...v.violations.slice(0, 5).map((s) => `    ${s}`)]),
    "",
    `command: ${command}`,
  ];
  return lines.join("\n");
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const command = `npm run torture -- ${process.argv.slice(2).join(" ")}`.trim();
  const tty = process.stderr.isTTY;
  const report = await runTorture({
    kills: args.kills,
    seed: args.seed,
    dense: args.dense,
    windows: args.windows,
    tmp: args.tmp,
    store: args.store,
    onRound: (r) => {
      if (tty) process.stderr.write(`\rround ${r.round}: ${r.mode}${r.killed ? " killed" : " finished"}   `);
      if (r.violations.length && !args.json) process.stderr.write(`\nround ${r.round} (${r.mode}): ${r.violations[0]}\n`);
    },
  });
  if (tty) process.stderr.write("\n");
  emitReport(report, command, args, renderTortureText);
}

runIfMain(import.meta.url, "torture", main);
