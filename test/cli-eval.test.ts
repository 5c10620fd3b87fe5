/**
 * `grk eval` through the real CLI: golden corpus, BEIR fixture, compare,
 * sweep, reports on disk, reproducibility.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, tempDir } from "./support/cli.js";

const ROOT = resolve(import.meta.dirname, "..");
let work: { dir: string; cleanup: () => void };

beforeAll(() => {
  work = tempDir("grk-evalcli-");
});
afterAll(() => work.cleanup());

function evalJson(args: string[]) {
  const res = grk(["eval", "--json", "--results-dir", join(work.dir, "results"), "--latency-runs", "1", ...args], { cwd: ROOT });
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout);
}

describe("grk eval", () => {
  let golden: { stages: Array<{ stage: string; is_baseline: boolean; aggregate: Record<string, number>; abstention: { no_answer_queries: number; abstained: number } }> };

  it("scores the golden corpus with BM25 as the baseline, reproducibly", () => {
    golden = evalJson([]);
    const again = evalJson([]);
    expect(golden.stages[0]).toMatchObject({ stage: "bm25", is_baseline: true });
    expect(golden.stages[0]!.aggregate.query_count).toBeGreaterThanOrEqual(49);
    // A floor, not a target: BM25 must do real work on the golden set.
    expect(golden.stages[0]!.aggregate.ndcg_at_10).toBeGreaterThan(0.6);
    expect(golden.stages[0]!.abstention.abstained).toBe(golden.stages[0]!.abstention.no_answer_queries);
    expect(again.stages[0]!.aggregate).toEqual(golden.stages[0]!.aggregate);
  });

  it("writes a self-contained HTML report and JSON with --output", () => {
    const out = join(work.dir, "report.json");
    const res = grk(["eval", "--results-dir", join(work.dir, "html"), "--output", out, "--latency-runs", "0"], { cwd: ROOT });
    expect(res.code).toBe(0);
    const html = res.stdout.match(/report: (.*\.html)/)![1]!;
    const page = readFileSync(resolve(ROOT, html), "utf8");
    expect(page).toContain("<svg");
    expect(page).not.toMatch(/(src|href)=["']?https?:/);
    expect(JSON.parse(readFileSync(out, "utf8")).schema_version).toBe(1);
  });

  it("compares against an earlier report", () => {
    const previous = join(work.dir, "previous.json");
    writeFileSync(previous, JSON.stringify(golden));
    const cmp = evalJson(["--compare", previous]);
    expect(cmp.comparison.rows.length).toBeGreaterThan(0);
    const text = grk(["eval", "--compare", previous, "--results-dir", join(work.dir, "r2"), "--latency-runs", "0"], { cwd: ROOT });
    expect(text.stdout).toMatch(/ndcg|nDCG/);
  });

  it("evaluates a BEIR-format dataset at document level", () => {
    const report = evalJson(["--beir", "test/fixtures/beir-mini", "--split", "test"]);
    expect(report.kind).toBe("beir");
    expect(report.stages[0].recall_kind).toBe("set_recall");
    expect(report.stages[0].aggregate.recall_at_100).toBeGreaterThan(0);
  });

  it("reports dense and hybrid stages with deltas vs the BM25 baseline", () => {
    const models = join(work.dir, "models");
    execFileSync(process.execPath, [join(ROOT, "scripts", "make-tiny-models.mjs"), models], { stdio: "pipe" });
    const config = join(work.dir, "dense.json");
    writeFileSync(config, JSON.stringify({ embedding: { provider: "onnx", model_dir: join(models, "tiny-embedder") } }));
    const report = evalJson(["--dense", "--config", config]);
    expect(report.stages.map((s: { stage: string }) => s.stage)).toEqual(["bm25", "dense", "hybrid"]);
    for (const st of report.stages.slice(1)) {
      expect(st.is_baseline).toBe(false);
      expect(Object.keys(st.delta_vs_baseline)).toContain("ndcg_at_10");
      expect(["better", "worse", "indistinguishable"]).toContain(st.delta_vs_baseline.ndcg_at_10.verdict);
    }
    expect(report.config.embedding.provider).toBe("onnx");
  });

  it("sweeps a setting and rejects a malformed sweep", () => {
    const sweep = evalJson(["--sweep", "chunk-size=400,2000"]);
    expect(sweep.runs.map((r: { value: number }) => r.value)).toEqual([400, 2000]);
    const bad = grk(["eval", "--sweep", "colour=red"], { cwd: ROOT });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[INVALID_ARGUMENT\]/);
    expect(existsSync(join(ROOT, "evals", "corpus", "results"))).toBe(false);
  });
});
