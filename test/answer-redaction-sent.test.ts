/**
 * What reaches the chat provider, through the real answer path and a local
 * chat server. Over chunk boundaries (issue 25 #3): a 4,096-bit private key is
 * longer than one chunk, so no chunk holds both its BEGIN and its END line,
 * and a smaller chunk size leaves chunks holding neither; no line of the key
 * may be sent. Common shapes (issue 25 #5): bearer and basic headers, YAML
 * block values, `*_PASS=` variables, passwords on command lines; none may be
 * sent, and the count must equal what was actually withheld.
 */
import Database from "better-sqlite3";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { ChatConfig } from "../src/answer/chat-config.js";
import { openCollection } from "../src/collection/index.js";
import { startChatServer, type ChatServer } from "./support/chat-server.js";
import { tempDir } from "./support/cli.js";
import { ingest } from "./service-fixtures.js";

const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 4096 });
const PEM = privateKey.export({ type: "pkcs1", format: "pem" }).toString().trim();
const BODY_LINES = PEM.split("\n").filter((l) => !l.startsWith("-----"));
const DOC = `# Deploy key\n\nThe deploy key for the staging cluster follows.\n\n${PEM}\n\nRotate the deploy key every year.\n`;

/** A fresh secret-looking value (letters and digits), so no secret is stored in the repository. */
const fresh = (n: number): string => randomBytes(n).toString("base64").replace(/[^A-Za-z0-9]/g, "x").slice(0, n);
const SHAPES: Array<[string, string]> = [
  ["bearer header", `curl -H "Authorization: Bearer ${fresh(40)}" https://api.example.com`],
  ["basic header", `Authorization: Basic ${fresh(24)}=`],
  ["yaml folded block", `database:\n  password: >-\n    ${fresh(20)}\n  host: db`],
  ["yaml literal block", `secrets:\n  api_token: |\n    ${fresh(32)}`],
  ["_PASS variable", `SMTP_PASS=${fresh(14)}`],
  ["redis-cli -a", `redis-cli -h cache -a ${fresh(18)} ping`],
  ["mysql -p", `mysql -u root -p${fresh(12)} app`],
  ["PGPASSWORD", `PGPASSWORD=${fresh(14)} psql -h db -U app`],
  ["curl -u", `curl -u deploy:${fresh(12)} https://ci.example.com/api`],
  ["URL userinfo", `amqp://app:${fresh(16)}@rabbit:5672/`],
  ["docker login -p", `docker login -u ci -p ${fresh(20)} registry.example.com`],
];
const SECRET_OF = (text: string): string => text.match(/[A-Za-z0-9x]{12,}(?==?(?:\s|"|$|@| ))/g)!.sort((a, b) => b.length - a.length)[0]!;

let dir: string;
let cleanup: () => void;
let docs: string;
const servers: ChatServer[] = [];

beforeAll(() => {
  ({ dir, cleanup } = tempDir("grk-redact-chunks-"));
  docs = join(dir, "docs");
  mkdirSync(docs, { recursive: true });
  writeFileSync(join(docs, "deploy-key.md"), DOC);
  const ops = join(dir, "ops");
  mkdirSync(ops, { recursive: true });
  writeFileSync(join(ops, "runbook.md"), `# Runbook credentials\n\n${SHAPES.map(([name, text]) => `## ${name}\n\nThe runbook credentials for ${name}:\n\n${text}\n`).join("\n")}`);
});
afterAll(() => cleanup());
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function askOver(indexDir: string, question: string): Promise<{ sent: string; total: number; passages: number }> {
  const s = await startChatServer(() => ({ text: "The deploy key is rotated every year [1]." }));
  servers.push(s);
  const chat = { provider: "openai", base_url: `${s.origin}/v1`, model: "gpt-test", allow_private_network: true } as ChatConfig;
  const col = await openCollection({ indexDir });
  try {
    const r = await col.answer(question, { chat, topK: 20 });
    // What the provider got besides the question itself (which the user typed).
    const sent = s.requests.map((q) => q.raw.replace(JSON.stringify(question).slice(1, -1), "")).join("\n");
    return { sent, total: r.redaction.total, passages: r.trimming?.passages_sent ?? 0 };
  } finally {
    await col.close();
  }
}

function chunkTexts(indexDir: string): string[] {
  const db = new Database(join(indexDir, "default.sqlite3"), { readonly: true });
  try {
    return (db.prepare("SELECT text FROM chunks ORDER BY ordinal").all() as Array<{ text: string }>).map((r) => r.text);
  } finally {
    db.close();
  }
}

describe("a private key longer than one chunk", () => {
  it("is withheld whole when one chunk holds only its BEGIN line and another only its END line", async () => {
    const indexDir = join(dir, "default-chunks");
    await ingest(indexDir, [docs]);
    const chunks = chunkTexts(indexDir);
    // The shape the issue describes: no chunk holds both markers.
    expect(chunks.some((c) => c.includes("BEGIN RSA PRIVATE KEY") && !c.includes("END RSA PRIVATE KEY"))).toBe(true);
    expect(chunks.some((c) => c.includes("END RSA PRIVATE KEY") && !c.includes("BEGIN RSA PRIVATE KEY"))).toBe(true);
    const { sent, total, passages } = await askOver(indexDir, "where is the deploy key and how often is it rotated");
    expect(passages).toBeGreaterThanOrEqual(2);
    for (const line of BODY_LINES) expect(sent).not.toContain(line);
    expect(total).toBeGreaterThanOrEqual(2);
  });

  it("is withheld from a chunk holding neither marker, only base64 lines", async () => {
    const indexDir = join(dir, "small-chunks");
    await ingest(indexDir, [docs], "default", { chunkSize: 900, chunkOverlap: 0 });
    const chunks = chunkTexts(indexDir);
    const middle = chunks.find((c) => !c.includes("-----") && BODY_LINES.some((l) => c.includes(l)));
    expect(middle).toBeDefined();
    // Ask with a word of that chunk's key body so the body-only chunk is retrieved and sent.
    const word = middle!.split(/[^A-Za-z0-9]+/).filter((w) => w.length >= 12).sort((a, b) => b.length - a.length)[0]!;
    const { sent, total } = await askOver(indexDir, `deploy key ${word}`);
    expect(sent).toContain("[REDACTED:");
    for (const line of BODY_LINES) expect(sent).not.toContain(line);
    expect(total).toBeGreaterThanOrEqual(1);
  });
});

describe("common secret shapes", () => {
  it("sends none of them, and counts exactly the values withheld", async () => {
    const indexDir = join(dir, "shapes");
    await ingest(indexDir, [join(dir, "ops")], "default", { chunkSize: 400, chunkOverlap: 0 });
    const { sent, total, passages } = await askOver(indexDir, "runbook credentials");
    expect(passages).toBeGreaterThanOrEqual(3);
    for (const [name, text] of SHAPES) {
      const secret = SECRET_OF(text);
      expect(secret.length, name).toBeGreaterThanOrEqual(12);
      // Every shape is in a passage that was sent (its name is), and its value is not.
      if (sent.includes(`for ${name}:`)) expect(sent, name).not.toContain(secret);
    }
    const shown = SHAPES.filter(([name]) => sent.includes(`for ${name}:`));
    expect(shown.map(([name]) => name)).toEqual(SHAPES.map(([name]) => name));
    // The count is the placeholders written, never more.
    expect(total).toBe((sent.match(/\[REDACTED:[a-z-]+\]/g) ?? []).length);
    expect(total).toBeGreaterThanOrEqual(shown.length);
  });
});
