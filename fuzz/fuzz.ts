/**
 * The citation-integrity fuzz run: generate cases from a seed, run them, count
 * verdicts per mutation kind and per class, build the expected × actual
 * matrix, shrink failures, and return a JSON-ready report.
 */
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { generateCase, describeSpec, type CaseSpec } from "./case-spec.js";
import { pdfCacheStats } from "./corpus-gen.js";
import { MUTATION_KINDS } from "./mutations.js";
import { probePermissions } from "./nobody.js";
import { FAILURE_KINDS, type Failure, type FailureKind } from "./oracle.js";
import { runCase, type CaseResult, type FuzzEnv } from "./run-case.js";
import { shrinkCase } from "./shrink.js";
import { startStoreTarget, type StoreKind } from "./store-target.js";
import { PageServer } from "./world.js";

/** Options of {@link runFuzz}. */
export interface FuzzOptions {
  cases: number;
  seed: number;
  /** Run only these case indexes (replay). */
  only?: number[] | undefined;
  /** Run this exact spec (a shrunk case printed by an earlier run). */
  replay?: CaseSpec | undefined;
  /** Scratch root (default: /dev/shm when writable, else the OS temp dir). */
  tmp?: string | undefined;
  shrink?: boolean | undefined;
  /** A verification taking longer than this counts as a hang (default 10 s). */
  hangTimeoutMs?: number | undefined;
  /** The store the worlds' collections live in (default sqlite; postgres starts a throwaway cluster). */
  store?: StoreKind | undefined;
  onCase?: ((r: CaseResult, done: number, total: number) => void) | undefined;
}

type Column = "verified" | "drifted" | "unresolvable" | "exception" | "hang";
type Counts = Record<Column, number>;

function zeroCounts(): Counts {
  return { verified: 0, drifted: 0, unresolvable: 0, exception: 0, hang: 0 };
}

/** The run's figures (the shape written by `--json` / `--out`). */
export interface FuzzReport {
  tool: "fuzz";
  schema_version: 1;
  seed: number;
  cases: number;
  started_at: string;
  duration_ms: number;
  ms_per_case: number;
  node: string;
  platform: string;
  store: StoreKind;
  permission: { mode: string; note: string };
  citations: number;
  verdicts: Counts;
  /** expected verdict → actual verdict → count. */
  matrix: Record<"verified" | "drifted" | "unresolvable", Counts>;
  by_kind: Record<string, { cases: number; skipped: number; citations: number; verdicts: Counts; variants: Record<string, number> }>;
  by_class: Record<string, { citations: number; verdicts: Counts }>;
  unresolvable_reasons: Record<string, number>;
  relocations: { checked: number; located: number; absent: number; at_predicted: number };
  skipped: Record<string, number>;
  failures: {
    total: number;
    by_kind: Record<FailureKind, number>;
    cases: Array<{ index: number; kind: string; variant: string; target: string; failures: Failure[] }>;
  };
  shrunk: Array<{ index: number; failure: FailureKind; attempts: number; size_from: number; size_to: number; description: string; failures: Failure[]; spec: CaseSpec }>;
  pdf_cache: { hits: number; size: number };
  ok: boolean;
}

function defaultScratch(): string {
  for (const dir of ["/dev/shm", tmpdir()]) {
    try {
      const probe = mkdtempSync(join(dir, "grk-fuzz-probe-"));
      rmSync(probe, { recursive: true });
      return dir;
    } catch {
      // try the next one
    }
  }
  return tmpdir();
}

/** Run the fuzz and return its report. */
export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const started = new Date();
  const t0 = performance.now();
  const base = opts.tmp ?? defaultScratch();
  mkdirSync(base, { recursive: true });
  const root = mkdtempSync(join(base, "grk-fuzz-"));
  chmodSync(root, 0o755);
  const server = await PageServer.start();
  const perm = await probePermissions(root);
  const store = await startStoreTarget(opts.store ?? "sqlite");
  const env: FuzzEnv = { root, server, perm, hangTimeoutMs: opts.hangTimeoutMs ?? 10_000, store };

  const report: FuzzReport = {
    tool: "fuzz",
    schema_version: 1,
    seed: opts.seed,
    cases: 0,
    started_at: started.toISOString(),
    duration_ms: 0,
    ms_per_case: 0,
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    store: store.kind,
    permission: { mode: perm.mode, note: perm.note },
    citations: 0,
    verdicts: zeroCounts(),
    matrix: { verified: zeroCounts(), drifted: zeroCounts(), unresolvable: zeroCounts() },
    by_kind: Object.fromEntries(MUTATION_KINDS.map((k) => [k, { cases: 0, skipped: 0, citations: 0, verdicts: zeroCounts(), variants: {} }])),
    by_class: Object.fromEntries(["text", "extracted", "snapshot"].map((c) => [c, { citations: 0, verdicts: zeroCounts() }])),
    unresolvable_reasons: {},
    relocations: { checked: 0, located: 0, absent: 0, at_predicted: 0 },
    skipped: {},
    failures: { total: 0, by_kind: Object.fromEntries(FAILURE_KINDS.map((k) => [k, 0])) as Record<FailureKind, number>, cases: [] },
    shrunk: [],
    pdf_cache: { hits: 0, size: 0 },
    ok: true,
  };
  const failing: CaseResult[] = [];
  try {
    const specs: CaseSpec[] = opts.replay
      ? [opts.replay]
      : (opts.only ?? Array.from({ length: opts.cases }, (_, i) => i)).map((i) => generateCase(opts.seed, i));
    for (const [n, spec] of specs.entries()) {
      const r = await runCase(spec, env);
      tally(report, r);
      if (r.failures.length > 0) failing.push(r);
      opts.onCase?.(r, n + 1, specs.length);
    }
    report.cases = specs.length;
    if (opts.shrink !== false) {
      // Shrink the first failing case of each failure kind.
      const seen = new Set<FailureKind>();
      for (const r of failing) {
        const kind = r.failures[0]!.kind;
        if (seen.has(kind) || seen.size >= 5) continue;
        seen.add(kind);
        const s = await shrinkCase(r.spec, kind, env);
        report.shrunk.push({
          index: r.spec.index,
          failure: kind,
          attempts: s.attempts,
          size_from: s.from,
          size_to: s.to,
          description: describeSpec(s.spec),
          failures: s.result.failures.filter((f) => f.kind === kind),
          spec: s.spec,
        });
      }
    }
  } finally {
    if (perm.mode === "worker") perm.worker.close();
    await server.close();
    await store.stop();
    rmSync(root, { recursive: true, force: true });
  }
  report.duration_ms = Math.round(performance.now() - t0);
  report.ms_per_case = report.cases ? Math.round((report.duration_ms / report.cases) * 10) / 10 : 0;
  report.pdf_cache = pdfCacheStats();
  report.ok = report.failures.total === 0;
  return report;
}

function tally(report: FuzzReport, r: CaseResult): void {
  const k = report.by_kind[r.kind]!;
  k.cases++;
  if (r.skipped) {
    k.skipped++;
    report.skipped[r.skipped] = (report.skipped[r.skipped] ?? 0) + 1;
  }
  if (r.variant) k.variants[r.variant] = (k.variants[r.variant] ?? 0) + 1;
  for (const c of r.checks) {
    report.citations++;
    k.citations++;
    k.verdicts[c.actual]++;
    report.verdicts[c.actual]++;
    report.matrix[c.expected][c.actual]++;
    const cls = report.by_class[c.sourceClass]!;
    cls.citations++;
    cls.verdicts[c.actual]++;
    if (c.expected === "unresolvable" && c.reason) report.unresolvable_reasons[c.reason] = (report.unresolvable_reasons[c.reason] ?? 0) + 1;
    if (c.relocation) {
      report.relocations.checked++;
      report.relocations[c.relocation]++;
      if (c.atPredicted) report.relocations.at_predicted++;
    }
  }
  if (r.failures.length > 0) {
    report.failures.total += r.failures.length;
    for (const f of r.failures) report.failures.by_kind[f.kind]++;
    if (report.failures.cases.length < 50) {
      report.failures.cases.push({ index: r.spec.index, kind: r.kind, variant: r.variant, target: r.targetKind, failures: r.failures.slice(0, 10) });
    }
  }
}
