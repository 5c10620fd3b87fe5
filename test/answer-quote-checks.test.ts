/**
 * Quotes and claims that must not pass as grounded (issue 25 #6, #7, #8), over
 * a real ingested collection: a quote that is part of a word, quotes in any
 * quotation marks (a fabricated one is never left unchecked), and unquoted
 * claims whose numbers, units, dates, negation or names are not in the
 * passages they cite. The end-to-end cases go through a local chat server.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChatConfig } from "../src/answer/chat-config.js";
import { findQuotes } from "../src/answer/answer-text.js";
import { openCollection } from "../src/collection/index.js";
import type { SearchHit } from "../src/core/contracts.js";
import { startChatServer } from "./support/chat-server.js";
import { tempDir } from "./support/cli.js";
import { ingest } from "./service-fixtures.js";

const RETENTION = "# Retention\n\nLogs are retained for 180 days and then deleted.\nBackups are kept for 30 days in the Frankfurt region.\nBackups are not encrypted at rest.\n";
const MIGRATION = "# Migration\n\nThe schema migration is unsafe while writes continue.\nThe cache is un\uFEFFsafe while it warms.\nRun `grk migrate --dry-run` first.\n";

let dir: string;
let cleanup: () => void;
let indexDir: string;
let hits: SearchHit[];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir("grk-quote-checks-"));
  const docs = join(dir, "docs");
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, "retention.md"), RETENTION);
  writeFileSync(join(docs, "migration.md"), MIGRATION);
  indexDir = join(dir, ".groundkit");
  await ingest(indexDir, [docs]);
  const col = await openCollection({ indexDir });
  try {
    const found = await col.search("retained backups kept migration unsafe cache", { topK: 5 });
    // Passage [1] is retention.md, [2] migration.md, whatever the ranking.
    hits = ["retention.md", "migration.md"].map((name) => found.find((h) => h.citation.source.endsWith(name))!);
  } finally {
    await col.close();
  }
});
afterAll(() => cleanup());

async function ground(answer: string) {
  const col = await openCollection({ indexDir });
  try {
    return await col.ground(answer, hits);
  } finally {
    await col.close();
  }
}

describe("quotes match whole words only (#6)", () => {
  it.each([
    ["a number inside a longer number", 'Logs are kept "80 days" [1].'],
    ["a word inside a longer word", 'The migration is "safe while writes continue" [2].'],
    ["a word split by an invisible U+FEFF", 'The cache is "safe while it warms" [2].'],
    ["U+FEFF taken for a space", 'Logs are retained "for 180\uFEFFdays" [1].'],
    ["a number cut before its decimals", 'Backups are kept for "3" days [1].'],
  ])("does not find %s", async (_, answer) => {
    const r = await ground(answer);
    expect(r.quotes[0]!.found).toBe(false);
    expect(r.verdict).not.toBe("grounded");
  });

  it("still finds whole words, whitespace aside", async () => {
    const r = await ground('Logs are "retained for\n 180 days" [1]. The migration is "unsafe while writes continue" [2].');
    expect(r.quotes.map((q) => q.found)).toEqual([true, true]);
    expect(r.verdict).toBe("grounded");
  });
});

describe("quotes in every kind of quotation mark are checked (#7)", () => {
  const fabricated = "kept for ninety days in Paris";
  it.each([
    ["single quotes", `Backups are '${fabricated}' [1].`],
    ["curly single quotes", `Backups are ‘${fabricated}’ [1].`],
    ["guillemets", `Backups are «${fabricated}» [1].`],
    ["reversed guillemets", `Backups are »${fabricated}« [1].`],
    ["German quotes", `Backups are „${fabricated}“ [1].`],
    ["CJK corner brackets", `Backups are 「${fabricated}」 [1].`],
    ["white corner brackets", `Backups are 『${fabricated}』 [1].`],
    ["fullwidth quotes", `Backups are ＂${fabricated}＂ [1].`],
    ["backticks", `Backups are \`${fabricated}\` [1].`],
    ["a mismatched pair", `Backups are "${fabricated}” [1].`],
    ["another mismatched pair", `Backups are “${fabricated}" [1].`],
    ["an unclosed quote", `Backups are “${fabricated} [1].`],
    ["a straight quote over 2,000 characters", `Backups are "${"kept for thirty days ".repeat(110)}" [1].`],
  ])("a fabrication in %s is not supported", async (_, answer) => {
    const r = await ground(answer);
    expect(r.sentences[0]!.status).not.toBe("supported");
    expect(r.verdict).toBe("ungrounded");
  });

  it.each([
    ["single quotes", "Logs are 'retained for 180 days' [1]."],
    ["guillemets", "Logs are «retained for 180 days» [1]."],
    ["CJK corner brackets", "Logs are 「retained for 180 days」 [1]."],
    ["backticks", "Run `grk migrate --dry-run` first [2]."],
    ["a mismatched pair", "Logs are “retained for 180 days\" [1]."],
  ])("a real quote in %s is found", async (_, answer) => {
    const r = await ground(answer);
    expect(r.quotes).toHaveLength(1);
    expect(r.quotes[0]!.found).toBe(true);
    expect(r.verdict).toBe("grounded");
  });

  it("does not read apostrophes as quotes", async () => {
    expect(findQuotes("The users' backups don't expire, and the admins’ logs aren’t kept; it's the '90s.")).toEqual([]);
    const r = await ground("The users' backups are kept for 30 days in the Frankfurt region; it's the admins' region [1].");
    expect(r.quotes).toEqual([]);
    expect(r.sentences[0]!.status).toBe("supported");
  });
});

describe("unquoted claims are checked against the passages they cite (#8)", () => {
  it.each([
    ["number", "Backups are kept for 999 days [1].", "999"],
    ["unit", "Backups are kept for 30 hours [1].", "30 hours"],
    ["negation", "Backups are encrypted at rest [1].", ""],
    ["negation", "Logs are not retained for 180 days [1].", "not"],
    ["entity", "Backups are kept for 30 days in the Dublin region [1].", "Dublin"],
    ["date", "Logs have been retained for 180 days since 2019 [1].", "2019"],
  ])("a %s that the passage does not say makes the sentence unsupported", async (kind, answer, claim) => {
    const r = await ground(answer);
    const s = r.sentences[0]!;
    expect(s.status).toBe("unsupported");
    expect(s.mismatches.map((m) => m.kind)).toContain(kind);
    if (claim) expect(s.mismatches.map((m) => m.claim).join(" ")).toContain(claim);
    expect(s.detail).toContain(kind);
  });

  it.each([
    ["the passage's own numbers", "Backups are kept for 30 days in the Frankfurt region [1]."],
    ["the same quantity in another unit", "Backups are kept for 720 hours [1]."],
    ["a number word", "Backups are kept for thirty days [1]."],
    ["the passage's negation", "Backups are not encrypted at rest [1]."],
    ["a paraphrase without numbers", "Old logs get deleted [1]."],
  ])("a claim with %s stays supported", async (_, answer) => {
    const r = await ground(answer);
    expect(r.sentences[0]!.mismatches).toEqual([]);
    expect(r.sentences[0]!.status).toBe("supported");
  });

  it("reports the mismatch through answer and a local chat server", async () => {
    const s = await startChatServer((req) => {
      const prompt = req.body.messages?.find((m) => m.role === "user")?.content ?? "";
      const n = /\[(\d+)\] \(retention\.md/.exec(prompt)?.[1] ?? "1";
      return { text: `Backups are kept for 999 days [${n}].` };
    });
    const col = await openCollection({ indexDir });
    try {
      const chat = { provider: "openai", base_url: `${s.origin}/v1`, model: "gpt-test", allow_private_network: true } as ChatConfig;
      const r = await col.answer("how long are backups kept", { chat });
      expect(r.grounding.verdict).toBe("ungrounded");
      expect(r.grounding.sentences[0]!.mismatches[0]).toMatchObject({ kind: "number", claim: "999 days" });
    } finally {
      await col.close();
      await s.close();
    }
  });
});
