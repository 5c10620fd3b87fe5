/**
 * Answering a question from a collection: (optionally) rewrite the query,
 * retrieve, abstain without calling the model when nothing was found, redact
 * secrets, fit the passages into the prompt budget, ask the model, ground the
 * answer (grounding.ts), and (optionally) ask an advisory judge.
 *
 * The collection is reached only through {@link AnswerSources}, which the
 * library face implements, so this layer never opens a store itself.
 */
import type { SearchHit } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { MAX_QUERY_CHARS } from "../retrieve/query.js";
import type { SearchMode } from "../retrieve/search-pipeline.js";
import { DEFAULT_MAX_PROMPT_TOKENS, type ChatConfig } from "./chat-config.js";
import type { ChatProvider, Completion } from "./chat-provider.js";
import { abstainedReport, groundAnswer, type GroundingChecks, type GroundingReport } from "./grounding.js";
import { runJudge, type JudgeReport } from "./judge.js";
import { answerPrompt, judgePrompt, rewritePrompt, type PromptPassage, type Trimming } from "./prompt.js";
import { addCounts, redactPassage, type PassageContext, type SecretKind } from "./redaction.js";

/** Passages retrieved by default: enough to answer, few enough to read. */
export const DEFAULT_ANSWER_TOP_K = 6;

/** What answering needs from a collection. */
export interface AnswerSources extends GroundingChecks {
  /** The collection's name, for the report. */
  collection: string;
  search(query: string, opts: { topK: number; mode: SearchMode; filters?: readonly string[] | undefined; rerank?: boolean | undefined }): Promise<SearchHit[]>;
  /** The stored document text around a hit, so redaction sees secrets that cross the passage's edges. */
  passageContext?(hit: SearchHit): Promise<PassageContext | undefined>;
}

/** Options of one answer. */
export interface AnswerOptions {
  /** Passages to retrieve (1-20, default 6). */
  topK?: number | undefined;
  mode?: SearchMode | undefined;
  filters?: readonly string[] | undefined;
  rerank?: boolean | undefined;
  /** Let the model rewrite the question into a retrieval query first. */
  rewrite?: boolean | undefined;
  /** Ask a second, advisory model call to rate faithfulness. */
  judge?: boolean | undefined;
  /** Override the config's `redact` (default true). */
  redact?: boolean | undefined;
  /** Progress for streaming surfaces: the passages once retrieved, then the answer's text as it arrives. */
  onEvent?: ((event: AnswerEvent) => void) | undefined;
}

/** What a streaming surface is told while an answer is written. */
export type AnswerEvent =
  | { type: "retrieval"; query: string; passages: number }
  | { type: "token"; text: string };

/** What was withheld from the provider. */
export interface RedactionReport {
  enabled: boolean;
  /** Secrets replaced, by kind. */
  counts: Partial<Record<SecretKind, number>>;
  total: number;
}

/** The full answer: text, grounding, and everything needed to check it. */
export interface AnswerReport {
  question: string;
  /** The query retrieval ran (the rewrite, when asked for; else the question). */
  retrieval_query: string;
  rewritten: boolean;
  collection: string;
  mode: SearchMode;
  provider: { provider: string; model: string };
  /** The model's answer; empty when it was never asked. */
  answer: string;
  /** Whether the model was called at all (not when nothing was retrieved). */
  model_called: boolean;
  grounding: GroundingReport;
  redaction: RedactionReport;
  /** How the passages were fitted into the prompt budget; null when no prompt was built. */
  trimming: Trimming | null;
  finish_reason: string | null;
  usage: Completion["usage"] | null;
  /** The advisory judge's opinion, when asked for. */
  judge: JudgeReport | null;
}

/** The label a passage gets in the prompt: its file name and heading, not its full path. */
function labelOf(hit: SearchHit): string {
  const source = hit.citation.source;
  const name = source.split(/[\\/]/).filter(Boolean).pop() ?? source;
  const heading = hit.heading_path.length > 0 ? ` › ${hit.heading_path.join(" › ")}` : "";
  return `${name}${heading}`;
}

/** Applies redaction (or not) and keeps the counts. */
class Redactor {
  readonly counts: Partial<Record<SecretKind, number>> = {};
  constructor(readonly enabled: boolean) {}

  apply(text: string, context?: PassageContext): string {
    if (!this.enabled) return text;
    const r = redactPassage(text, context);
    addCounts(this.counts, r.counts);
    return r.text;
  }

  report(): RedactionReport {
    const total = Object.values(this.counts).reduce((a, b) => a + b, 0);
    return { enabled: this.enabled, counts: { ...this.counts }, total };
  }
}

/** Rewrite the question into a retrieval query; a failure is an error, never a silent fallback. */
async function rewriteQuery(chat: ChatProvider, question: string, redactor: Redactor): Promise<string> {
  let text: string;
  try {
    ({ text } = await chat.complete(rewritePrompt(redactor.apply(question)), { maxTokens: 96 }));
  } catch (err) {
    const why = err instanceof GroundkitError ? err.message : "the model call failed";
    throw new GroundkitError("GENERATION_FAILED", `Rewriting the query failed: ${why}`, { step: "rewrite" }, { cause: err });
  }
  const query = text.trim().split("\n")[0]!.trim().replace(/^["'`]+|["'`]+$/g, "").trim();
  if (query === "" || query.length > MAX_QUERY_CHARS) {
    throw new GroundkitError(
      "GENERATION_FAILED",
      `Rewriting the query failed: the model returned ${query === "" ? "an empty query" : "a query longer than the search limit"}. Run without --rewrite to search the question as it is.`,
      { step: "rewrite" },
    );
  }
  return query;
}

/**
 * Answer `question` from `sources` with `chat`.
 *
 * @throws GroundkitError GENERATION_FAILED when the model (or a requested rewrite) fails; search errors as search raises them
 * @example
 *   const report = await answerQuestion("How long are backups kept?", chat, config, sources, { topK: 6 });
 *   report.grounding.verdict; // "grounded" | "partially grounded" | "ungrounded" | "abstained"
 */
export async function answerQuestion(
  question: string,
  chat: ChatProvider,
  config: ChatConfig,
  sources: AnswerSources,
  opts: AnswerOptions = {},
): Promise<AnswerReport> {
  const mode = opts.mode ?? "bm25";
  const redactor = new Redactor(opts.redact ?? config.redact ?? true);
  const provider = { provider: chat.provider, model: chat.model };
  const retrievalQuery = opts.rewrite ? await rewriteQuery(chat, question, redactor) : question;
  const hits = await sources.search(retrievalQuery, {
    topK: opts.topK ?? DEFAULT_ANSWER_TOP_K,
    mode,
    filters: opts.filters,
    rerank: opts.rerank,
  });
  opts.onEvent?.({ type: "retrieval", query: retrievalQuery, passages: hits.length });
  const base = {
    question,
    retrieval_query: retrievalQuery,
    rewritten: opts.rewrite === true,
    collection: sources.collection,
    mode,
    provider,
  };
  if (hits.length === 0) {
    return {
      ...base,
      answer: "",
      model_called: false,
      grounding: abstainedReport(`nothing in collection '${sources.collection}' matched ${opts.rewrite ? "the rewritten query" : "the question"}, so the model was not asked.`),
      redaction: redactor.report(),
      trimming: null,
      finish_reason: null,
      usage: null,
      judge: null,
    };
  }

  const contexts = redactor.enabled && sources.passageContext ? await Promise.all(hits.map((h) => sources.passageContext!(h))) : [];
  const promptPassages: PromptPassage[] = hits.map((h, i) => ({ text: redactor.apply(h.text, contexts[i]), label: redactor.apply(labelOf(h)) }));
  const { messages, trimming, sent } = answerPrompt(redactor.apply(question), promptPassages, config.max_prompt_tokens ?? DEFAULT_MAX_PROMPT_TOKENS);
  const onEvent = opts.onEvent;
  const completion = await chat.complete(messages, onEvent ? { onToken: (text) => onEvent({ type: "token", text }) } : {});
  // Only the passages the model saw carry numbers it may cite.
  const shown = hits.slice(0, sent);
  const grounding = await groundAnswer(completion.text, shown, sources);
  const judge = opts.judge ? await runJudge(chat, judgePrompt(redactor.apply(question), redactor.apply(completion.text), promptPassages.slice(0, sent))) : null;
  return {
    ...base,
    answer: completion.text,
    model_called: true,
    grounding,
    redaction: redactor.report(),
    trimming,
    finish_reason: completion.finish_reason,
    usage: completion.usage,
    judge,
  };
}
