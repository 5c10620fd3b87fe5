/**
 * `answer` end to end through the library against a local chat server that
 * speaks the real OpenAI and Ollama wire formats: grounded answers, a
 * fabricated quote, a quote from an uncited passage, an out-of-range citation,
 * no citations, a source edited after ingest, a secret in a passage, no hits,
 * streaming, error bodies and retries, rewrite and judge.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import type { ChatConfig } from "../src/answer/chat-config.js";
import { GroundkitError } from "../src/core/errors.js";
import { codePointLength } from "../src/core/text.js";
import { passageNumber, startChatServer, type ChatReply, type ChatRequest, type ChatServer } from "./support/chat-server.js";
import { tempDir } from "./support/cli.js";
import { ingest } from "./service-fixtures.js";

const BACKUPS = "# Backups\n\nBackups are kept for 30 days and then deleted.\nSnapshots are  taken every night at 02:00 😀 UTC.\n";
const RESTORE = "# Restore\n\nA restore takes about 20 minutes per terabyte of data.\n";
const SECRET_KEY = "AKIAIOSFODNN7EXAMPLE";
const SECRET_PASSWORD = "hunter2-correct-horse";
const DEPLOY = `# Deploy\n\nThe deploy uses access key ${SECRET_KEY} and password=${SECRET_PASSWORD} for the staging database.\n`;

let dir: string;
let cleanup: () => void;
let indexDir: string;
let docs: string;
const servers: ChatServer[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = tempDir("grk-answer-"));
  docs = join(dir, "docs");
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, "backups.md"), BACKUPS);
  writeFileSync(join(docs, "restore.md"), RESTORE);
  writeFileSync(join(docs, "deploy.md"), DEPLOY);
  indexDir = join(dir, ".groundkit");
  await ingest(indexDir, [docs]);
});
afterAll(() => cleanup());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(script: (req: ChatRequest, n: number) => ChatReply): Promise<ChatServer> {
  const s = await startChatServer(script);
  servers.push(s);
  return s;
}

const openai = (s: ChatServer, extra: Partial<ChatConfig> = {}): ChatConfig =>
  ({ provider: "openai", base_url: `${s.origin}/v1`, model: "gpt-test", allow_private_network: true, max_attempts: 3, ...extra }) as ChatConfig;
const ollama = (s: ChatServer): ChatConfig => ({ provider: "ollama", base_url: s.origin, model: "llama-test", allow_private_network: true });

async function ask(question: string, chat: ChatConfig, opts: Parameters<Awaited<ReturnType<typeof openCollection>>["answer"]>[1] = {}) {
  const col = await openCollection({ indexDir });
  try {
    return await col.answer(question, { chat, ...opts });
  } finally {
    await col.close();
  }
}

describe("grounding against a scripted OpenAI-compatible server", () => {
  it("grounds a cited, quoting answer; the quote's citation has exact code points and verifies", async () => {
    const s = await server((req) => ({ text: `Backups are kept "for 30 days" [${passageNumber(req, "Backups are kept")}]. Snapshots run nightly [${passageNumber(req, "Snapshots")}].` }));
    const r = await ask("how long are backups kept", openai(s));
    expect(r.grounding.verdict).toBe("grounded");
    expect(r.grounding.counts).toMatchObject({ sentences: 2, supported: 2, quotes: 1, quotes_found: 1 });
    const q = r.grounding.quotes[0]!;
    expect(q.found).toBe(true);
    const at = BACKUPS.indexOf("for 30 days");
    expect(q.citation).toMatchObject({ start_offset: at, end_offset: at + "for 30 days".length, start_line: 3, end_line: 3 });
    expect(q.verification?.verdict).toBe("verified");
    const col = await openCollection({ indexDir });
    expect((await col.verify(q.citation)).verdict).toBe("verified");
    await col.close();
    expect(s.requests[0]!.body.stream).toBe(false);
  });

  it("matches a quote across whitespace differences only, with code-point offsets past an emoji", async () => {
    const quote = "taken every night at 02:00 😀 UTC";
    const s = await server((req) => ({ text: `Snapshots are "${quote.replace("taken", "taken\n")}" [${passageNumber(req, "Snapshots")}].` }));
    const r = await ask("when are snapshots taken", openai(s));
    const q = r.grounding.quotes[0]!;
    expect(q.found).toBe(true);
    const utf16 = BACKUPS.indexOf("taken every");
    const start = codePointLength(BACKUPS.slice(0, utf16));
    expect(q.citation!.start_offset).toBe(start);
    expect(q.citation!.end_offset).toBe(start + codePointLength("taken every night at 02:00 😀 UTC"));
    expect(q.verification?.verdict).toBe("verified");
    // Case is not forgiven.
    const s2 = await server((req) => ({ text: `Snapshots are "Taken every night" [${passageNumber(req, "Snapshots")}].` }));
    expect((await ask("when are snapshots taken", openai(s2))).grounding.quotes[0]!.found).toBe(false);
  });

  it("reports a fabricated quote as not found and the answer as ungrounded", async () => {
    const s = await server((req) => ({ text: `Backups are kept "for 90 days" [${passageNumber(req, "Backups are kept")}].` }));
    const r = await ask("how long are backups kept", openai(s));
    expect(r.grounding.quotes[0]).toMatchObject({ found: false, citation: null });
    expect(r.grounding.sentences[0]!.status).toBe("quote_not_found");
    expect(r.grounding.verdict).toBe("ungrounded");
  });

  it("does not accept a quote from a passage the sentence does not cite, and says where it is", async () => {
    const s = await server((req) => ({
      text: `Backups are deleted [${passageNumber(req, "Backups are kept")}]. A restore takes "about 20 minutes per terabyte" [${passageNumber(req, "Backups are kept")}].`,
    }));
    const r = await ask("backups restore time", openai(s));
    const q = r.grounding.quotes[0]!;
    expect(q.found).toBe(false);
    expect(q.found_in_uncited.length).toBe(1);
    expect(r.grounding.verdict).toBe("partially grounded");
  });

  it("marks a citation number that names no passage as unsupported", async () => {
    const s = await server((req) => ({ text: `Backups are kept for 30 days [${passageNumber(req, "Backups are kept")}]. Restores are instant [9].` }));
    const r = await ask("how long are backups kept", openai(s));
    expect(r.grounding.sentences[1]).toMatchObject({ status: "unsupported", invalid_citations: [9] });
    expect(r.grounding.counts.invalid_citations).toBe(1);
    expect(r.grounding.verdict).toBe("partially grounded");
  });

  it("calls an answer with no citations ungrounded", async () => {
    const s = await server(() => ({ text: "Backups are kept for a month. They are deleted afterwards." }));
    const r = await ask("how long are backups kept", openai(s));
    expect(r.grounding.sentences.every((x) => x.status === "unsupported")).toBe(true);
    expect(r.grounding.verdict).toBe("ungrounded");
  });

  it("abstains without calling the model when nothing matches", async () => {
    const s = await server(() => ({ text: "should not be asked" }));
    const r = await ask("xylophone zeppelin quasar", openai(s));
    expect(r.model_called).toBe(false);
    expect(r.grounding.verdict).toBe("abstained");
    expect(r.grounding.reason).toMatch(/not asked/);
    expect(s.requests).toHaveLength(0);
  });

  it("abstains when the model says the passages do not answer", async () => {
    const s = await server(() => ({ text: "NOT_IN_SOURCES" }));
    const r = await ask("how long are backups kept", openai(s));
    expect(r.model_called).toBe(true);
    expect(r.grounding.verdict).toBe("abstained");
  });

  it("never sends a secret in a passage or the question; says how many were redacted, by kind", async () => {
    const s = await server((req) => ({ text: `The deploy uses a key [${passageNumber(req, "deploy uses")}].` }));
    const r = await ask(`which key does the deploy use, is it ${SECRET_KEY}`, openai(s), { judge: true, rewrite: true });
    for (const req of s.requests) {
      expect(req.raw).not.toContain(SECRET_KEY);
      expect(req.raw).not.toContain(SECRET_PASSWORD);
    }
    expect(s.requests.some((req) => req.raw.includes("[REDACTED:aws-access-key]"))).toBe(true);
    expect(r.redaction.enabled).toBe(true);
    expect(r.redaction.counts["aws-access-key"]).toBeGreaterThanOrEqual(2);
    expect(r.redaction.counts.credential).toBeGreaterThanOrEqual(1);
    // Grounding still checks against the real passage text, which still holds the secret.
    expect(r.grounding.passages.some((p) => p.text.includes(SECRET_KEY))).toBe(true);
  });

  it("sends text unredacted only when asked to", async () => {
    const s = await server((req) => ({ text: `It uses a key [${passageNumber(req, "deploy uses")}].` }));
    const r = await ask("which access key does the deploy use", openai(s), { redact: false });
    expect(r.redaction.enabled).toBe(false);
    expect(s.requests[0]!.raw).toContain(SECRET_KEY);
  });

  it("reports trimming when the passages do not fit the prompt budget", async () => {
    const { dir: d2, cleanup: c2 } = tempDir("grk-answer-trim-");
    try {
      for (const name of ["a", "b", "c"]) writeFileSync(join(d2, `${name}.md`), `# Archive ${name}\n\n` + "The archive keeps every record safe. ".repeat(40));
      const idx = join(d2, ".groundkit");
      await ingest(idx, [d2]);
      const s = await server(() => ({ text: "The archive keeps records [1]." }));
      const col = await openCollection({ indexDir: idx });
      const r = await col.answer("archive record", { chat: openai(s, { max_prompt_tokens: 600 }) });
      await col.close();
      expect(r.trimming).toMatchObject({ trimmed: true, passages_sent: 1, passages_dropped: 2 });
      expect(r.grounding.passages.length).toBe(1);
      expect(s.requests[0]!.raw).not.toContain("[2] (");
    } finally {
      c2();
    }
  });

  it("streams tokens in several pieces and assembles the same answer", async () => {
    const text = 'Backups are kept "for 30 days" [1].';
    const s = await server(() => ({ text, chunkSize: 3 }));
    const tokens: string[] = [];
    const r = await ask("how long are backups kept", openai(s), { onEvent: (e) => e.type === "token" && tokens.push(e.text) });
    expect(s.requests[0]!.body.stream).toBe(true);
    expect(s.requests[0]!.headers.accept).toBe("text/event-stream");
    expect(tokens.length).toBeGreaterThan(3);
    expect(tokens.join("")).toBe(text);
    expect(r.answer).toBe(text);
  });

  it("retries a 5xx and a 429 with Retry-After, never repeating the error body", async () => {
    const s = await server((req, n) =>
      n === 1
        ? { status: 500, body: JSON.stringify({ error: { message: "boom echo sk-secret-in-body", type: "server_error" } }) }
        : n === 2
          ? { status: 429, body: "{}", headers: { "retry-after": "0" } }
          : { text: `Backups are kept for 30 days [${passageNumber(req, "Backups are kept")}].` },
    );
    const r = await ask("how long are backups kept", openai(s, { max_attempts: 4 }));
    expect(s.requests).toHaveLength(3);
    expect(r.grounding.verdict).toBe("grounded");
  });

  it("fails with GENERATION_FAILED on a 401, without the body or the key in the message", async () => {
    const s = await server(() => ({ status: 401, body: JSON.stringify({ error: { message: "Incorrect API key sk-live-abc", code: "invalid_api_key" } }) }));
    const env = { ...process.env, GRK_TEST_CHAT_KEY: "sk-test-key-0123456789" };
    process.env.GRK_TEST_CHAT_KEY = env.GRK_TEST_CHAT_KEY;
    try {
      const err = await ask("how long are backups kept", openai(s, { api_key_env: "GRK_TEST_CHAT_KEY" })).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(GroundkitError);
      expect((err as GroundkitError).code).toBe("GENERATION_FAILED");
      expect((err as GroundkitError).message).toMatch(/HTTP 401/);
      expect((err as GroundkitError).message).not.toMatch(/sk-/);
      expect(s.requests).toHaveLength(1);
      expect(s.requests[0]!.headers.authorization).toBe("Bearer sk-test-key-0123456789");
    } finally {
      delete process.env.GRK_TEST_CHAT_KEY;
    }
  });

  it("treats an error event inside a stream as a failure", async () => {
    const s = await server(() => ({ status: 200, body: 'data: {"error":{"message":"overloaded","type":"overloaded_error"}}\n\n', headers: { "content-type": "text/event-stream" } }));
    const err = await ask("how long are backups kept", openai(s), { onEvent: () => undefined }).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("GENERATION_FAILED");
    expect((err as GroundkitError).message).toMatch(/overloaded_error/);
  });

  it("does not retry a stream that broke off after tokens were delivered", async () => {
    const s = await server(() => ({ breakAfter: "Backups are" }));
    const err = await ask("how long are backups kept", openai(s), { onEvent: () => undefined }).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("GENERATION_FAILED");
    expect((err as GroundkitError).message).toMatch(/mid-stream/);
    expect(s.requests).toHaveLength(1);
  });

  it("refuses a loopback endpoint without the explicit opt-in", async () => {
    const s = await server(() => ({ text: "x [1]." }));
    const err = await ask("how long are backups kept", openai(s, { allow_private_network: false })).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("SSRF_BLOCKED");
    expect(s.requests).toHaveLength(0);
  });

  it("rewrites the query for retrieval, but grounds against the original question; a failed rewrite is an error", async () => {
    const s = await server((req, n) => (n === 1 ? { text: "backups retention days" } : { text: `Kept 30 days [${passageNumber(req, "Backups are kept")}].` }));
    const r = await ask("for how long do you hold on to my copies?", openai(s), { rewrite: true });
    expect(r.retrieval_query).toBe("backups retention days");
    expect(r.question).toBe("for how long do you hold on to my copies?");
    expect(r.grounding.verdict).toBe("grounded");
    const bad = await server(() => ({ text: "   " }));
    const err = await ask("how long are backups kept", openai(bad), { rewrite: true }).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("GENERATION_FAILED");
    expect((err as GroundkitError).message).toMatch(/Rewriting the query failed/);
    expect(bad.requests).toHaveLength(1);
  });

  it("adds an advisory judge that never changes the verdict", async () => {
    const s = await server((req, n) =>
      n === 1 ? { text: `Backups are kept "for 90 days" [${passageNumber(req, "Backups are kept")}].` } : { text: 'Sure: {"score": 5, "explanation": "faithful"}' },
    );
    const r = await ask("how long are backups kept", openai(s), { judge: true });
    expect(r.judge).toEqual({ advisory: true, score: 5, explanation: "faithful" });
    expect(r.grounding.verdict).toBe("ungrounded");
  });
});

describe("grounding against a scripted Ollama server", () => {
  it("answers without streaming and with NDJSON streaming", async () => {
    const s = await server((req) => ({ text: `Backups are kept "for 30 days" [${passageNumber(req, "Backups are kept")}].` }));
    const plain = await ask("how long are backups kept", ollama(s));
    expect(s.requests[0]!.path).toBe("/api/chat");
    expect(s.requests[0]!.body.stream).toBe(false);
    expect(plain.grounding.verdict).toBe("grounded");
    const tokens: string[] = [];
    const streamed = await ask("how long are backups kept", ollama(s), { onEvent: (e) => e.type === "token" && tokens.push(e.text) });
    expect(s.requests[1]!.body.stream).toBe(true);
    expect(tokens.length).toBeGreaterThan(3);
    expect(streamed.answer).toBe(plain.answer);
    expect(streamed.usage).toEqual({ prompt_tokens: 90, completion_tokens: 15 });
  });

  it("reports an Ollama error body as GENERATION_FAILED", async () => {
    const s = await server(() => ({ status: 404, body: JSON.stringify({ error: "model 'llama-test' not found" }) }));
    const err = await ask("how long are backups kept", ollama(s)).catch((e: unknown) => e);
    expect((err as GroundkitError).code).toBe("GENERATION_FAILED");
    expect((err as GroundkitError).message).toMatch(/HTTP 404/);
  });
});

describe("a source edited after ingest", () => {
  it("reports the cited passage and the quote as drifted, and the answer as not grounded", async () => {
    const { dir: d2, cleanup: c2 } = tempDir("grk-answer-drift-");
    try {
      const file = join(d2, "policy.md");
      writeFileSync(file, "# Policy\n\nInvoices are archived for seven years.\n");
      const idx = join(d2, ".groundkit");
      await ingest(idx, [d2]);
      writeFileSync(file, "# Policy\n\nInvoices are archived for two years only.\n");
      const s = await server((req) => ({ text: `Invoices are "archived for seven years" [${passageNumber(req, "Invoices")}].` }));
      const col = await openCollection({ indexDir: idx });
      const r = await col.answer("how long are invoices archived", { chat: openai(s) });
      await col.close();
      expect(r.grounding.passages[0]!.verification?.verdict).toBe("drifted");
      expect(r.grounding.quotes[0]).toMatchObject({ found: true });
      expect(r.grounding.quotes[0]!.verification?.verdict).toBe("drifted");
      expect(r.grounding.sentences[0]!.status).toBe("source_changed");
      expect(r.grounding.verdict).toBe("ungrounded");
    } finally {
      c2();
    }
  });
});
