/**
 * `grk eval --answer` on the golden corpus against a scripted OpenAI-compatible
 * server: it abstains on the no-answer queries and quotes its first passage
 * otherwise, so the metrics have known values.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateAnswers } from "../src/eval/answer-eval.js";
import { promptOf, startChatServer, type ChatServer } from "./support/chat-server.js";

const JUDGMENTS = "evals/judgments.jsonl";
const judgments = readFileSync(JUDGMENTS, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { query: string; category: string });
const noAnswer = new Set(judgments.filter((j) => j.category === "no_answer").map((j) => j.query));

let chat: ChatServer;
beforeAll(async () => {
  chat = await startChatServer((req) => {
    const prompt = promptOf(req);
    const question = /\nQuestion: ([\s\S]*)$/.exec(prompt)?.[1] ?? "";
    if (noAnswer.has(question)) return { text: "NOT_IN_SOURCES" };
    const first = /^\[1\] \([^\n]*\)\n([\s\S]*?)(?=\n\[2\] \(|\nQuestion: )/m.exec(prompt)?.[1] ?? "";
    const words = first.split(/\s+/).filter((w) => w !== "" && !/["“”[\]]/.test(w)).slice(2, 6).join(" ");
    return { text: `The passage says "${words}" [1].` };
  });
});
afterAll(async () => chat.close());

describe("evaluateAnswers", () => {
  it("scores grounding, quote validity, citation precision and abstention per provider", async () => {
    const report = await evaluateAnswers("evals/corpus", JUDGMENTS, {
      chat: { provider: "openai", base_url: `${chat.origin}/v1`, model: "scripted", allow_private_network: true },
    });
    expect(report.provider).toEqual({ provider: "openai", model: "scripted" });
    expect(report.queries).toBe(judgments.length);
    expect(report.abstention_rate).toBe(1);
    expect(report.false_abstention_rate).toBe(0);
    // The scripted model quotes a passage it cites: every quote is valid.
    expect(report.quote_validity).toBe(1);
    expect(report.grounding_rate).toBeGreaterThan(0.9);
    expect(report.citation_precision).toBeGreaterThan(0);
    expect(report.citation_precision).toBeLessThanOrEqual(1);
    expect(report.rows.filter((r) => r.category === "no_answer").every((r) => r.verdict === "abstained")).toBe(true);
  });
});
