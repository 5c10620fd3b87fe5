/**
 * `grk eval`: measure retrieval on the golden corpus, any quote-anchored
 * judgment set, or a BEIR-format dataset; compare with an earlier report; sweep
 * a setting. Writes JSON + a self-contained HTML report to evals/results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Command, Option } from "commander";
import { CHAT_PROVIDERS } from "../answer/chat-config.js";
import { evaluateAnswers, renderAnswerEvalText } from "../eval/answer-eval.js";
import { chatConfigFrom } from "./answer.js";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { evaluateBeir, evaluateGolden, type EvalSettings, type HarnessOptions } from "../eval/harness.js";
import { compareReports, parseEvalReport, type EvalReport } from "../eval/report.js";
import { renderReportHtml } from "../eval/report-html.js";
import { formatTable, renderComparisonText, renderProgressBar, renderReportText } from "../eval/report-text.js";
import { action, DECIMAL_INTEGER, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { createProgress, createRate } from "./progress.js";
import { cacheDir } from "../embed/minilm/cache-dir.js";
import { collectionSettings } from "../collection/settings.js";
import { goldenPaths } from "../eval/golden-corpus.js";

interface EvalFlags extends CommonFlags {
  corpusDir?: string;
  judgments?: string;
  beir?: string;
  split: string;
  compare?: string;
  sweep?: string;
  chunkSize?: number;
  chunkOverlap?: number;
  latencyRuns?: number;
  output?: string;
  resultsDir: string;
  progress?: boolean;
  dense?: boolean;
  rerank?: boolean;
  embeddingCache?: boolean;
  answer?: boolean;
  provider?: "openai" | "ollama";
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  allowPrivateNetwork?: boolean;
}

const SWEEPABLE: Record<string, keyof EvalSettings> = { "chunk-size": "chunkSize", "chunk-overlap": "chunkOverlap" };

/** Parse `chunk-size=256,512` into the setting and its values. */
export function parseSweep(spec: string): { name: string; key: keyof EvalSettings; values: number[] } {
  const m = /^([a-z-]+)=([0-9,\s]+)$/.exec(spec.trim());
  const key = m ? SWEEPABLE[m[1]!] : undefined;
  if (!m || !key) {
    throw new GroundkitError(
      "INVALID_ARGUMENT",
      `--sweep takes <setting>=<v1>,<v2>,... with setting one of ${Object.keys(SWEEPABLE).join(", ")}; got '${spec}'.`,
    );
  }
  const parts = m[2]!.split(",").map((v) => v.trim());
  // Every value is a plain non-negative decimal; an empty or malformed one is refused, not dropped.
  if (!parts.every((v) => DECIMAL_INTEGER.test(v) && !v.startsWith("-"))) {
    throw new GroundkitError("INVALID_ARGUMENT", `--sweep values must be non-negative decimal integers; got '${spec}'.`);
  }
  const values = parts.map(Number);
  return { name: m[1]!, key, values };
}

export function evalCommand(): Command {
  const cmd = new Command("eval")
    .description("evaluate retrieval: golden corpus (default), --beir DIR, or --corpus-dir + --judgments")
    .option("--corpus-dir <dir>", "documents of a quote-anchored judgment set (default: evals/corpus here, else groundkit's own)")
    .option("--judgments <file>", "quote-anchored judgments, JSONL (default: evals/judgments.jsonl here, else groundkit's own)")
    .option("--beir <dir>", "a BEIR-format dataset (corpus.jsonl, queries.jsonl, qrels/<split>.tsv)")
    .option("--split <name>", "BEIR qrels split", "test")
    .option("--compare <report.json>", "show deltas against an earlier JSON report")
    .option("--sweep <setting=values>", "run once per value, e.g. chunk-size=256,512,1024,2000")
    .option("--chunk-size <n>", "chunk size in characters", intFlag("--chunk-size", 64, 100_000))
    .option("--chunk-overlap <n>", "chunk overlap in characters", intFlag("--chunk-overlap", 0, 50_000))
    .option("--latency-runs <n>", "timed passes over all queries after the scoring pass", intFlag("--latency-runs", 0, 100))
    .option("--dense", "add dense and hybrid stages (embeds the corpus with the configured model)")
    .option("--rerank", "add a rerank stage (needs a `rerank` section in the config)")
    .option("--output <file>", "also write the JSON report here")
    .option("--results-dir <dir>", "where JSON + HTML reports are written", "evals/results")
    .option("--no-embedding-cache", "embed every chunk again instead of reusing vectors cached by earlier runs")
    .option("--no-progress", "never show the progress line")
    .option("--answer", "evaluate answers instead: grounding rate, quote validity, citation precision, abstention (needs a chat model)")
    .addOption(new Option("--provider <name>", "chat provider for --answer (default: the config's chat section)").choices([...CHAT_PROVIDERS]))
    .option("--model <name>", "chat model for --answer")
    .option("--base-url <url>", "chat API root for --answer")
    .option("--api-key-env <NAME>", "environment variable holding the chat API key (openai)")
    .option("--allow-private-network", "allow a chat endpoint on a loopback or private address");
  withCommonOptions(cmd).action(
    action(async (flags: EvalFlags) => {
      const loc = resolveLocation(flags);
      const { config } = loc;
      const settings: EvalSettings = {
        chunkSize: flags.chunkSize ?? config.chunk_size ?? DEFAULTS.chunkSize,
        chunkOverlap: flags.chunkOverlap ?? config.chunk_overlap ?? DEFAULTS.chunkOverlap,
      };
      const progress = createProgress(flags.progress !== false);
      if (flags.answer) {
        if (flags.beir || flags.sweep || flags.compare) throw new GroundkitError("USAGE", "--answer runs on a quote-anchored judgment set; it does not combine with --beir, --sweep or --compare.");
        const chat = chatConfigFrom(config, flags);
        if (!chat) throw new GroundkitError("CHAT_NOT_CONFIGURED", "--answer needs a chat model to evaluate.");
        try {
          const golden = goldenPaths({ corpusDir: flags.corpusDir, judgments: flags.judgments });
          const report = await evaluateAnswers(golden.corpusDir, golden.judgments, {
            chat,
            settings: collectionSettings(config),
            chunkSize: settings.chunkSize,
            chunkOverlap: settings.chunkOverlap,
            onProgress: (done, total) => progress.update(renderProgressBar("answering", done, total)),
          });
          progress.done();
          const { json } = writeResults(flags, "answer", report);
          if (flags.json) printJson(report);
          else println(`${renderAnswerEvalText(report)}

report: ${json}`);
        } finally {
          progress.done();
        }
        return;
      }
      const embedRate = createRate("chunks");
      const harness = (s: EvalSettings): HarnessOptions => ({
        settings: s,
        stages: {
          dense: flags.dense,
          rerank: flags.rerank,
          // Every config section, extraction limits included; the run's own chunk settings are passed explicitly.
          collection: collectionSettings(loc.config),
        },
        latencyRuns: flags.latencyRuns,
        embeddingCacheFile: flags.embeddingCache === false ? undefined : join(cacheDir(), "eval-vectors.sqlite3"),
        onProgress: (p) =>
          progress.update(
            p.stage === "embed"
              ? `${renderProgressBar("embedding", p.done, p.total)} ${embedRate(p.done, p.total)}`
              : p.phase === "ingest"
                ? `ingesting corpus… ${p.done || ""}`
                : renderProgressBar(`${p.stage} ${p.phase}`, p.done, p.total),
          ),
      });
      const golden = goldenPaths({ corpusDir: flags.corpusDir, judgments: flags.judgments });
      const run = (s: EvalSettings) =>
        flags.beir ? evaluateBeir(flags.beir, flags.split, harness(s)) : evaluateGolden(golden.corpusDir, golden.judgments, harness(s));

      try {
        if (flags.sweep) {
          const sweep = parseSweep(flags.sweep);
          const runs: Array<{ value: number; report: EvalReport }> = [];
          for (const value of sweep.values) {
            const s = { ...settings, [sweep.key]: value };
            // Sweeping the size keeps the overlap proportional unless the overlap was given explicitly.
            if (sweep.key === "chunkSize" && flags.chunkOverlap === undefined) {
              s.chunkOverlap = Math.round((value * settings.chunkOverlap) / settings.chunkSize);
            }
            runs.push({ value, report: await run(s) });
          }
          progress.done();
          const out = { kind: "sweep", setting: sweep.name, base: settings, runs };
          writeResults(flags, `sweep-${sweep.name}`, out);
          if (flags.json) printJson(out);
          else println(renderSweep(sweep.name, runs));
          return;
        }
        const report = await run(settings);
        progress.done();
        const comparison = flags.compare ? compareReports(report, readReport(flags.compare)) : undefined;
        const { html } = writeResults(flags, report.kind, report, renderReportHtml(report, comparison ? { comparison } : {}));
        if (flags.json) printJson(comparison ? { ...report, comparison } : report);
        else {
          println(renderReportText(report));
          if (comparison) println("\n" + renderComparisonText(comparison));
          println(`\nreport: ${html}`);
        }
      } finally {
        progress.done();
      }
    }),
  );
  return cmd;
}

function readReport(file: string): EvalReport {
  try {
    return parseEvalReport(JSON.parse(readFileSync(file, "utf8")));
  } catch (err) {
    if (err instanceof GroundkitError) throw err;
    throw new GroundkitError("REPORT_INVALID", `Cannot read report ${file}: ${(err as Error).message}`);
  }
}

/** Write `<results-dir>/<stamp>-<name>.json` (+ .html) and --output; returns the paths. */
function writeResults(flags: EvalFlags, name: string, json: unknown, html?: string): { json: string; html: string | undefined } {
  mkdirSync(flags.resultsDir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const base = join(flags.resultsDir, `${stamp}-${name}`);
  const text = JSON.stringify(json, null, 2) + "\n";
  writeFileSync(`${base}.json`, text);
  if (html) writeFileSync(`${base}.html`, html);
  if (flags.output) writeFileSync(flags.output, text);
  return { json: `${base}.json`, html: html ? `${base}.html` : undefined };
}

function renderSweep(setting: string, runs: Array<{ value: number; report: EvalReport }>): string {
  const metrics = ["recall_at_1", "recall_at_5", "recall_at_10", "mrr", "ndcg_at_10"] as const;
  const rows: string[][] = [[setting, "stage", ...metrics, "p50 ms"]];
  for (const { value, report } of runs) {
    for (const st of report.stages) {
      rows.push([
        String(value),
        st.stage,
        ...metrics.map((m) => st.aggregate[m].toFixed(3)),
        st.latency_p50_ms == null ? "-" : st.latency_p50_ms.toFixed(2),
      ]);
    }
  }
  return formatTable(rows);
}
