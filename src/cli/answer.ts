/**
 * `grk answer <question>`: an answer written by a chat model from the
 * collection's passages, with a grounding report computed by groundkit:
 * sentences and their citations, quotes found (or not) in the cited passages
 * with citations of their own, cited passages re-verified, and a verdict.
 * `--strict` exits 3 unless the verdict is `grounded`.
 */
import { Command, Option } from "commander";
import { openCollection, type SearchMode } from "../collection/index.js";
import type { AnswerReport } from "../answer/answer.js";
import { CHAT_PROVIDERS, parseChatConfig, type ChatConfig } from "../answer/chat-config.js";
import type { ConfigFile } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { SEARCH_MODES } from "../retrieve/search-pipeline.js";
import { action, collect, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { locator, snippet } from "./format.js";

/** Exit code of `--strict` when the answer is not grounded (1 is an error, 2 a usage error). */
export const NOT_GROUNDED_EXIT = 3;

interface AnswerFlags extends CommonFlags {
  topK?: number;
  mode?: SearchMode;
  filter?: string[];
  rerank?: boolean;
  rewrite?: boolean;
  judge?: boolean;
  strict?: boolean;
  redact?: boolean;
  provider?: "openai" | "ollama";
  model?: string;
  baseUrl?: string;
  apiKeyEnv?: string;
  allowPrivateNetwork?: boolean;
  maxPromptTokens?: number;
  baseDir?: string;
}

const DEFAULT_BASE_URLS: Record<(typeof CHAT_PROVIDERS)[number], string> = {
  openai: "https://api.openai.com/v1",
  ollama: "http://127.0.0.1:11434",
};

/** The config file's `chat` section with the flags laid over it (a different --provider starts afresh). */
export function chatConfigFrom(config: ConfigFile, flags: AnswerFlags): ChatConfig | undefined {
  const fromFile = config.chat === undefined ? undefined : parseChatConfig(config.chat);
  const provider = flags.provider ?? fromFile?.provider;
  if (provider === undefined) return undefined;
  const base: Record<string, unknown> = fromFile && fromFile.provider === provider ? { ...fromFile } : { provider };
  if (flags.baseUrl !== undefined) base["base_url"] = flags.baseUrl;
  base["base_url"] ??= DEFAULT_BASE_URLS[provider];
  if (provider === "openai" && base["api_key_env"] === undefined && base["base_url"] === DEFAULT_BASE_URLS.openai) base["api_key_env"] = "OPENAI_API_KEY";
  if (flags.model !== undefined) base["model"] = flags.model;
  if (flags.apiKeyEnv !== undefined) {
    if (provider !== "openai") throw new GroundkitError("USAGE", "--api-key-env applies to --provider openai only.");
    base["api_key_env"] = flags.apiKeyEnv;
  }
  if (flags.allowPrivateNetwork) base["allow_private_network"] = true;
  if (flags.maxPromptTokens !== undefined) base["max_prompt_tokens"] = flags.maxPromptTokens;
  return parseChatConfig(base);
}

export function answerCommand(): Command {
  const cmd = new Command("answer")
    .description("answer a question from the collection with a chat model; groundkit checks every citation and quote")
    .argument("<question>", "what to ask")
    .option("-k, --top-k <n>", "passages to retrieve (1-20)", intFlag("--top-k", 1, 20), 6)
    .addOption(new Option("--mode <mode>", "retrieval mode").choices([...SEARCH_MODES]).default("bm25"))
    .option("--filter <filter>", "restrict passages, e.g. path=guides/** (repeatable)", collect)
    .option("--rerank", "rescore the candidates with the configured cross-encoder")
    .option("--rewrite", "let the model rewrite the question into a search query first (a failed rewrite is an error)")
    .option("--judge", "ask a second, advisory model call to rate faithfulness (never changes the verdict or exit code)")
    .option("--strict", `exit ${NOT_GROUNDED_EXIT} unless the grounding verdict is "grounded"`)
    .option("--no-redact", "send passages and the question without replacing secrets by placeholders (on by default)")
    .addOption(new Option("--provider <name>", "chat provider (default: the config file's chat section)").choices([...CHAT_PROVIDERS]))
    .option("--model <name>", "chat model name")
    .option("--base-url <url>", "chat API root (default: https://api.openai.com/v1, or http://127.0.0.1:11434 for ollama)")
    .option("--api-key-env <NAME>", "environment variable holding the API key (openai; default OPENAI_API_KEY for api.openai.com)")
    .option("--allow-private-network", "allow a chat endpoint on a loopback or private address (local Ollama, vLLM, a proxy)")
    .option("--max-prompt-tokens <n>", "prompt budget; lower-ranked passages are left out to fit", intFlag("--max-prompt-tokens", 256, 1_000_000))
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (question: string, flags: AnswerFlags) => {
      const loc = resolveLocation(flags);
      const chat = chatConfigFrom(loc.config, flags);
      const col = await openCollection(loc);
      try {
        const report = await col.answer(question, {
          chat,
          topK: flags.topK,
          mode: flags.mode,
          filters: flags.filter,
          rerank: flags.rerank,
          rewrite: flags.rewrite,
          judge: flags.judge,
          redact: flags.redact === false ? false : undefined,
          baseDir: flags.baseDir,
        });
        if (flags.json) printJson(report);
        else for (const line of renderAnswer(report)) println(line);
        return flags.strict && report.grounding.verdict !== "grounded" ? NOT_GROUNDED_EXIT : 0;
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}

/** The answer, its passages, its quotes and the grounding summary, as text. */
export function renderAnswer(r: AnswerReport): string[] {
  const g = r.grounding;
  const lines: string[] = [];
  if (r.model_called && g.verdict !== "abstained") lines.push(r.answer.trim(), "");
  if (r.rewritten) lines.push(`searched for: ${r.retrieval_query}`);
  if (g.passages.length > 0) {
    lines.push("passages:");
    for (const p of g.passages) {
      const verdict = p.verification ? ` [${p.verification.verdict}]` : p.cited ? "" : "  (not cited)";
      lines.push(`  [${p.n}] ${locator(p.citation)}${verdict}  ${snippet(p.text, 100)}`);
      if (p.verification && p.verification.verdict !== "verified") lines.push(`      ${p.verification.detail}`);
    }
  }
  if (g.quotes.length > 0) {
    lines.push("quotes:");
    for (const q of g.quotes) {
      const where = q.found && q.citation
        ? `found in [${q.passage}] at ${locator(q.citation)}, code points ${q.citation.start_offset}-${q.citation.end_offset} [${q.verification?.verdict ?? "unchecked"}]`
        : `NOT FOUND: ${q.detail}`;
      lines.push(`  "${snippet(q.text, 80)}"  ${where}`);
    }
  }
  const unsupported = g.sentences.filter((s) => s.status !== "supported");
  if (unsupported.length > 0) {
    lines.push("not supported:");
    for (const s of unsupported) lines.push(`  sentence ${s.index} (${s.status.replace(/_/g, " ")}): ${s.detail}  "${snippet(s.text, 80)}"`);
  }
  lines.push(`grounding: ${g.verdict} — ${g.reason}`);
  if (r.redaction.total > 0) {
    const kinds = Object.entries(r.redaction.counts).map(([k, n]) => `${k} ${n}`).join(", ");
    lines.push(`redacted before sending: ${r.redaction.total} secret${r.redaction.total === 1 ? "" : "s"} (${kinds})`);
  } else if (!r.redaction.enabled && r.model_called) lines.push("redaction: off (--no-redact)");
  if (r.trimming?.trimmed) {
    const t = r.trimming;
    lines.push(
      `trimmed to fit the ${t.budget_tokens}-token prompt budget: ${t.passages_dropped} passage${t.passages_dropped === 1 ? "" : "s"} left out` +
        (t.passages_truncated > 0 ? `, ${t.passages_truncated} cut short` : ""),
    );
  }
  if (r.judge) {
    lines.push(
      "score" in r.judge && r.judge.score !== null
        ? `judge (advisory): ${r.judge.score}/5 — ${"explanation" in r.judge ? r.judge.explanation : ""}`
        : `judge (advisory): no score — ${"error" in r.judge ? r.judge.error : ""}`,
    );
  }
  return lines;
}
