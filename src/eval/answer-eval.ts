/**
 * `grk eval --answer`: answers over a quote-anchored judgment set, scored by
 * their grounding: how many answers are grounded, how many quotes are valid,
 * how many cited passages hold a gold span (citation precision against the
 * judgments), and whether no-answer queries abstain. One run measures one chat
 * provider; the report names it, so runs per provider compare side by side.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { openCollection } from "../collection/index.js";
import type { CollectionSettings } from "../collection/settings.js";
import type { ChatConfig } from "../answer/chat-config.js";
import type { GroundingVerdict } from "../answer/grounding.js";
import { goldenContent } from "./harness.js";
import { loadJudgments, type ResolvedJudgment } from "./judgments.js";

/** What one query's answer scored. */
export interface AnswerEvalRow {
  query_id: string;
  category: string;
  verdict: GroundingVerdict;
  quotes: number;
  quotes_found: number;
  cited_passages: number;
  cited_relevant: number;
}

/** The report of one `grk eval --answer` run. */
export interface AnswerEvalReport {
  kind: "answer";
  provider: { provider: string; model: string };
  queries: number;
  /** Grounded answers among the answerable queries (every category but no_answer). */
  grounding_rate: number;
  /** Quotes found verbatim in a cited passage, of all quotes. */
  quote_validity: number | null;
  /** Cited passages that overlap a gold span, of all cited passages (answerable queries). */
  citation_precision: number | null;
  /** No-answer queries that abstained. */
  abstention_rate: number | null;
  /** Answerable queries that abstained anyway. */
  false_abstention_rate: number | null;
  verdicts: Record<string, number>;
  rows: AnswerEvalRow[];
  config: Record<string, unknown>;
}

/** Options of {@link evaluateAnswers}. */
export interface AnswerEvalOptions {
  chat: ChatConfig;
  settings?: CollectionSettings | undefined;
  chunkSize?: number | undefined;
  chunkOverlap?: number | undefined;
  topK?: number | undefined;
  onProgress?: ((done: number, total: number) => void) | undefined;
}

const ratio = (n: number, d: number): number | null => (d === 0 ? null : Number((n / d).toFixed(4)));

/** Whether a cited passage of `doc` spanning [start, end) overlaps a gold span of the judgment. */
function overlapsGold(j: ResolvedJudgment, doc: string, start: number, end: number): boolean {
  return j.gold.some((g) => g.doc === doc && g.start < end && start < g.end);
}

/**
 * Ingest the corpus into a temporary collection and answer every judged query.
 *
 * @example
 *   const report = await evaluateAnswers("evals/corpus", "evals/judgments.jsonl", { chat });
 *   report.grounding_rate; // 0.82
 */
export async function evaluateAnswers(corpusDir: string, judgmentsFile: string, opts: AnswerEvalOptions): Promise<AnswerEvalReport> {
  const corpus = resolve(corpusDir);
  const judgments = await loadJudgments(judgmentsFile, corpus, { contentOf: goldenContent });
  const root = await mkdtemp(join(tmpdir(), "grk-eval-answer-"));
  const col = await openCollection({ ...opts.settings, chat: opts.chat, indexDir: join(root, "index"), collection: "eval", create: true });
  try {
    await col.ingest([corpus], { chunkSize: opts.chunkSize, chunkOverlap: opts.chunkOverlap });
    const docOf = (source: string) => relative(corpus, source).split(sep).join("/");
    const rows: AnswerEvalRow[] = [];
    let provider: { provider: string; model: string } = { provider: opts.chat.provider, model: opts.chat.model };
    for (const [i, j] of judgments.entries()) {
      const r = await col.answer(j.query, { topK: opts.topK });
      provider = r.provider;
      const g = r.grounding;
      const cited = g.passages.filter((p) => p.cited);
      rows.push({
        query_id: j.query_id,
        category: j.category,
        verdict: g.verdict,
        quotes: g.counts.quotes,
        quotes_found: g.counts.quotes_found,
        cited_passages: cited.length,
        cited_relevant: cited.filter((p) => overlapsGold(j, docOf(p.citation.source), p.citation.start_offset, p.citation.end_offset)).length,
      });
      opts.onProgress?.(i + 1, judgments.length);
    }
    const answerable = rows.filter((r) => r.category !== "no_answer");
    const noAnswer = rows.filter((r) => r.category === "no_answer");
    const sum = (xs: AnswerEvalRow[], f: (r: AnswerEvalRow) => number) => xs.reduce((a, r) => a + f(r), 0);
    const verdicts: Record<string, number> = {};
    for (const r of rows) verdicts[r.verdict] = (verdicts[r.verdict] ?? 0) + 1;
    return {
      kind: "answer",
      provider,
      queries: rows.length,
      grounding_rate: ratio(answerable.filter((r) => r.verdict === "grounded").length, answerable.length) ?? 0,
      quote_validity: ratio(sum(rows, (r) => r.quotes_found), sum(rows, (r) => r.quotes)),
      citation_precision: ratio(sum(answerable, (r) => r.cited_relevant), sum(answerable, (r) => r.cited_passages)),
      abstention_rate: ratio(noAnswer.filter((r) => r.verdict === "abstained").length, noAnswer.length),
      false_abstention_rate: ratio(answerable.filter((r) => r.verdict === "abstained").length, answerable.length),
      verdicts,
      rows,
      config: { corpus_dir: corpusDir, judgments: judgmentsFile, top_k: opts.topK ?? 6, chunk_size: opts.chunkSize ?? null, chunk_overlap: opts.chunkOverlap ?? null },
    };
  } finally {
    await col.close();
    await rm(root, { recursive: true, force: true });
  }
}

/** The report as a few lines of text. */
export function renderAnswerEvalText(r: AnswerEvalReport): string {
  const pct = (x: number | null) => (x === null ? "-" : `${(x * 100).toFixed(1)}%`);
  return [
    `answer eval: ${r.provider.provider} ${r.provider.model}, ${r.queries} queries`,
    `grounding rate (answerable, grounded): ${pct(r.grounding_rate)}`,
    `quote validity: ${pct(r.quote_validity)}`,
    `citation precision vs judgments: ${pct(r.citation_precision)}`,
    `abstention on no-answer queries: ${pct(r.abstention_rate)}   false abstention: ${pct(r.false_abstention_rate)}`,
    `verdicts: ${Object.entries(r.verdicts).map(([k, n]) => `${k} ${n}`).join(", ")}`,
  ].join("\n");
}
