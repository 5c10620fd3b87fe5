/**
 * The advisory judge: a second model call that rates the answer's faithfulness
 * to its passages. It is labelled advisory everywhere and never changes the
 * grounding verdict or an exit code: a model grading a model is an opinion,
 * the grounding report is a check.
 */
import { GroundkitError } from "../core/errors.js";
import type { ChatMessage, ChatProvider } from "./chat-provider.js";

/** The judge's opinion, or why there is none. */
export type JudgeReport =
  | { advisory: true; score: number; explanation: string }
  | { advisory: true; score: null; error: string };

/** Pull `{"score": n, "explanation": "…"}` out of a reply (models like to wrap JSON in prose or fences). */
export function parseJudgeReply(reply: string): { score: number; explanation: string } | undefined {
  const m = /\{[\s\S]{0,4000}\}/.exec(reply);
  if (!m) return undefined;
  try {
    const json = JSON.parse(m[0]) as { score?: unknown; explanation?: unknown };
    const score = typeof json.score === "string" ? Number(json.score) : json.score;
    if (typeof score !== "number" || !Number.isFinite(score) || score < 1 || score > 5) return undefined;
    return { score, explanation: typeof json.explanation === "string" ? json.explanation.slice(0, 1000) : "" };
  } catch {
    return undefined;
  }
}

/** Ask the judge; a failed or unreadable judgement is reported, never thrown (it is advisory). */
export async function runJudge(chat: ChatProvider, messages: ChatMessage[]): Promise<JudgeReport> {
  try {
    const { text } = await chat.complete(messages, { maxTokens: 256 });
    const parsed = parseJudgeReply(text);
    if (!parsed) return { advisory: true, score: null, error: "the judge's reply held no score from 1 to 5." };
    return { advisory: true, ...parsed };
  } catch (err) {
    const message = err instanceof GroundkitError ? err.message : "the judge call failed.";
    return { advisory: true, score: null, error: message };
  }
}
