/**
 * The real CLI: `grk answer` against a local OpenAI-compatible server, the
 * quote's citation checked later by `grk verify`, and `--strict`.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, grkAsync, tempDir } from "./support/cli.js";
import { passageNumber, startChatServer, type ChatServer } from "./support/chat-server.js";

let dir: string;
let cleanup: () => void;
let chat: ChatServer;
let fabricate = false;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir("grk-cli-answer-"));
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "docs", "backups.md"), "# Backups\n\nBackups are kept for 30 days and then deleted.\n");
  expect(grk(["ingest", "docs"], { cwd: dir }).code).toBe(0);
  chat = await startChatServer((req) => ({
    text: fabricate
      ? `Backups are kept "for a year" [${passageNumber(req, "Backups")}].`
      : `Backups are kept "for 30 days" [${passageNumber(req, "Backups")}].`,
  }));
});
afterAll(async () => {
  await chat.close();
  cleanup();
});

const answerArgs = () => ["answer", "how long are backups kept", "--provider", "openai", "--model", "gpt-test", "--base-url", `${chat.origin}/v1`, "--allow-private-network"];

describe("grk answer", () => {
  it("prints the report as JSON; grk verify re-grounds it as a whole, the quote's citation verified", async () => {
    fabricate = false;
    const res = await grkAsync([...answerArgs(), "--json"], { cwd: dir });
    expect(res.stderr).toBe("");
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout) as { grounding: { verdict: string; quotes: Array<{ citation: unknown }> } };
    expect(report.grounding.verdict).toBe("grounded");
    writeFileSync(join(dir, "answer.json"), res.stdout);
    const verified = await grkAsync(["verify", "answer.json", "--json"], { cwd: dir });
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({
      verdict: "grounded",
      quotes: [{ found: true, citation: report.grounding.quotes[0]!.citation, verification: { verdict: "verified" } }],
    });
  });

  it("prints the answer, its quotes and the grounding summary as text", async () => {
    fabricate = false;
    const res = await grkAsync(answerArgs(), { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('Backups are kept "for 30 days" [1].');
    expect(res.stdout).toMatch(/"for 30 days"\s+found in \[1\] at docs\/backups\.md:3-3, code points \d+-\d+ \[verified\]/);
    expect(res.stdout).toMatch(/grounding: grounded — 1 of 1 sentences supported/);
  });

  it("--strict exits 3 when a quote is fabricated, and says which", async () => {
    fabricate = true;
    const res = await grkAsync([...answerArgs(), "--strict"], { cwd: dir });
    expect(res.code).toBe(3);
    expect(res.stdout).toContain("NOT FOUND");
    expect(res.stdout).toMatch(/grounding: ungrounded/);
  });

  it("without a chat model it says how to configure one", () => {
    const res = grk(["answer", "how long are backups kept"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[CHAT_NOT_CONFIGURED\]/);
    expect(res.stderr).toMatch(/hint: Add a `chat` section/);
  });
});
