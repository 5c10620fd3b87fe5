/**
 * Progress of a dense ingest whose output is not a terminal (issue 29): while one large file is
 * being embedded, stderr gets plain progress lines counting chunks embedded, and with `--json`
 * NDJSON progress events, stdout keeping only the result. The embedding server holds one batch
 * until the test has seen the progress it expects, so nothing here depends on timing.
 */
import { spawn } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { CLI, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let server: Server;
let release: () => void;

/** An OpenAI-compatible embeddings server: batch 2 waits for `release()`. */
async function startEmbeddings(): Promise<string> {
  let held: Promise<void> = new Promise((resolve) => (release = resolve));
  let n = 0;
  server = createServer((req, res) => {
    const body: Buffer[] = [];
    req.on("data", (c: Buffer) => body.push(c));
    req.on("end", async () => {
      const input = (JSON.parse(Buffer.concat(body).toString("utf8")) as { input: string[] }).input;
      if (++n === 2) await held;
      const data = input.map((t, index) => ({ object: "embedding", index, embedding: [t.length, 1, index + 1, 2] }));
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ object: "list", data, model: "m", usage: { prompt_tokens: 1, total_tokens: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  held = held.then(() => undefined);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeEach(async () => {
  work = tempDir("grk-progress-");
  const origin = await startEmbeddings();
  writeFileSync(
    join(work.dir, "groundkit.config.json"),
    JSON.stringify({ embedding: { provider: "openai", base_url: origin, model: "m", dimensions: 4, batch_size: 8, concurrency: 1, allow_private_network: true } }),
  );
  mkdirSync(join(work.dir, "docs"));
  // One large file: 40 paragraphs, many chunks at --chunk-size 100.
  const paragraphs = Array.from({ length: 40 }, (_, i) => `Paragraph ${i} says something about backups, restores and retention periods.`);
  writeFileSync(join(work.dir, "docs", "large.md"), `# Large\n\n${paragraphs.join("\n\n")}\n`);
});
afterEach(async () => {
  release();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  work.cleanup();
});

/** Run `grk ingest docs --dense …`, call `release()` once stderr matches `seen`, resolve with the outputs. */
function ingestUntil(extra: string[], seen: RegExp): Promise<{ code: number | null; stdout: string; stderr: string; matched: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, "ingest", "docs", "--dense", "--chunk-size", "100", "--chunk-overlap", "0", ...extra], { cwd: work.dir });
    let stdout = "";
    let stderr = "";
    let matched = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = seen.exec(stderr);
      if (m && matched === "") {
        matched = m[0];
        release();
      }
    });
    child.on("close", (code) => resolve({ code, stdout, stderr, matched }));
  });
}

it("off a terminal, a plain line counts the chunks embedded while one file is still being embedded", async () => {
  const res = await ingestUntil([], /^\[\d+s\] ingest: 1 seen, 0 indexed, 0 unchanged, 0 failed, 8 chunks embedded.*$/m);
  expect(res.matched).not.toBe("");
  expect(res.code).toBe(0);
  expect(res.stdout).toMatch(/^files seen 1, indexed 1, .*vectors written \d+/);
}, 60_000);

it("with --json, NDJSON progress events on stderr and only the summary on stdout", async () => {
  const res = await ingestUntil(["--json"], /^\{"type":"progress","command":"ingest".*"chunks_embedded":8.*\}$/m);
  expect(res.code).toBe(0);
  const event = JSON.parse(res.matched) as Record<string, unknown>;
  expect(event).toMatchObject({ type: "progress", command: "ingest", phase: "ingest", files_seen: 1, indexed: 0, chunks_embedded: 8 });
  for (const line of res.stderr.trim().split("\n")) expect((JSON.parse(line) as { type: string }).type).toBe("progress");
  expect((JSON.parse(res.stdout) as { indexed: number }).indexed).toBe(1);
}, 60_000);
