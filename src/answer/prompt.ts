/**
 * The prompts: the answer prompt numbers the retrieved passages and asks for
 * sentences that each cite one or more of them (`[2]`) with exact wording in
 * double quotes; it must fit a token budget, so the lowest-ranked passages are
 * dropped first and, if the best one alone is too long, it is cut. What was
 * trimmed is reported. Tokens are estimated (4 code points per token, the
 * usual rule of thumb for English BPE vocabularies) since no tokenizer of the
 * remote model is available here.
 */
import { codePointLength } from "../core/text.js";
import type { ChatMessage } from "./chat-provider.js";

/** The reply the model is told to give when the passages do not answer the question. */
export const ABSTAIN_REPLY = "NOT_IN_SOURCES";

/** Estimated tokens of a text. */
export function estimateTokens(text: string): number {
  return Math.ceil(codePointLength(text) / 4);
}

export const ANSWER_SYSTEM_PROMPT = [
  "You answer questions using only the numbered passages the user gives you.",
  "Rules:",
  "1. Every sentence of your answer ends with the number of each passage that supports it, in square brackets, e.g. [2] or [1][3].",
  '2. When you use the exact wording of a passage, put it in double quotes ("…") and copy it character for character. Put nothing else in quotation marks or backticks: every quoted span is checked against the passages.',
  "3. Do not use anything that is not in the passages. Do not cite a passage number that was not given.",
  `4. If the passages do not answer the question, reply with exactly ${ABSTAIN_REPLY} and nothing else.`,
  "5. Answer in plain prose, without headings.",
].join("\n");

/** A passage as the prompt sees it. */
export interface PromptPassage {
  /** The text to send (already redacted when redaction is on). */
  text: string;
  /** Where it came from, shown to the model as a label. */
  label: string;
}

/** How the passages were fitted into the budget. */
export interface Trimming {
  budget_tokens: number;
  estimated_tokens: number;
  /** Passages sent to the model, numbered 1..n in rank order. */
  passages_sent: number;
  /** Lowest-ranked passages left out to fit the budget. */
  passages_dropped: number;
  /** Passages whose text was cut to fit (at most the last one sent). */
  passages_truncated: number;
  trimmed: boolean;
}

function passageBlock(n: number, p: PromptPassage, text: string): string {
  return `[${n}] (${p.label})\n${text}\n`;
}

function userMessage(question: string, blocks: string[]): string {
  return `Passages:\n\n${blocks.join("\n")}\nQuestion: ${question}`;
}

/** Cut `text` to about `tokens` tokens, at a code-point boundary. */
function cutToTokens(text: string, tokens: number): string {
  return Array.from(text).slice(0, Math.max(0, tokens * 4)).join("") + " …";
}

/**
 * Build the answer prompt within `budgetTokens`.
 *
 * @example
 *   const { messages, trimming } = answerPrompt("How long are backups kept?", passages, 6000);
 */
export function answerPrompt(
  question: string,
  passages: readonly PromptPassage[],
  budgetTokens: number,
): { messages: ChatMessage[]; trimming: Trimming; sent: number } {
  const fixed = estimateTokens(ANSWER_SYSTEM_PROMPT) + estimateTokens(userMessage(question, []));
  let used = fixed;
  const blocks: string[] = [];
  let truncated = 0;
  for (const [i, p] of passages.entries()) {
    const block = passageBlock(i + 1, p, p.text);
    const cost = estimateTokens(block);
    if (used + cost <= budgetTokens) {
      blocks.push(block);
      used += cost;
      continue;
    }
    // The best passage is always sent, cut if it must be: an answer from nothing helps nobody.
    if (blocks.length === 0) {
      const room = budgetTokens - used - estimateTokens(passageBlock(1, p, ""));
      const cut = passageBlock(1, p, cutToTokens(p.text, Math.max(16, room - 1)));
      blocks.push(cut);
      used += estimateTokens(cut);
      truncated = 1;
    }
    break;
  }
  const dropped = passages.length - blocks.length;
  return {
    messages: [
      { role: "system", content: ANSWER_SYSTEM_PROMPT },
      { role: "user", content: userMessage(question, blocks) },
    ],
    trimming: {
      budget_tokens: budgetTokens,
      estimated_tokens: used,
      passages_sent: blocks.length,
      passages_dropped: dropped,
      passages_truncated: truncated,
      trimmed: dropped > 0 || truncated > 0,
    },
    sent: blocks.length,
  };
}

/** Ask for a retrieval query (the answer and its grounding still use the original question). */
export function rewritePrompt(question: string): ChatMessage[] {
  return [
    {
      role: "system",
      content:
        "Rewrite the user's question as a short keyword search query for a document index: the key terms and likely synonyms, " +
        "no explanation, one line, at most 30 words. Reply with the query only.",
    },
    { role: "user", content: question },
  ];
}

/** Ask a second model call to rate faithfulness, 1-5, as JSON. */
export function judgePrompt(question: string, answer: string, passages: readonly PromptPassage[]): ChatMessage[] {
  const blocks = passages.map((p, i) => passageBlock(i + 1, p, p.text));
  return [
    {
      role: "system",
      content:
        "You judge whether an answer is faithful to numbered passages: every claim must be supported by the passage it cites. " +
        'Reply with JSON only: {"score": <1-5, 5 = fully faithful>, "explanation": "<one sentence>"}.',
    },
    { role: "user", content: `${userMessage(question, blocks)}\n\nAnswer to judge:\n${answer}` },
  ];
}
