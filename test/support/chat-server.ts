/**
 * A local chat server on 127.0.0.1 speaking the real wire formats of
 * OpenAI-compatible `/v1/chat/completions` (JSON, and SSE when `stream: true`)
 * and Ollama `/api/chat` (JSON, and NDJSON when `stream: true`), answering
 * with scripted replies. Every request body is kept, so a test can assert
 * what did (and did not) reach the provider.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatRequest {
  path: string;
  headers: IncomingMessage["headers"];
  /** The raw body as received. */
  raw: string;
  body: { model?: string; stream?: boolean; messages?: Array<{ role: string; content: string }> };
}

/** A scripted reply: answer text, or an HTTP error with a body, or a stream that breaks off. */
export type ChatReply =
  | { text: string; chunkSize?: number }
  | { status: number; body: string; headers?: Record<string, string> }
  | { breakAfter: string };

export interface ChatServer {
  origin: string;
  requests: ChatRequest[];
  close(): Promise<void>;
}

/** The user message of a request (the prompt with the numbered passages). */
export function promptOf(req: ChatRequest): string {
  return req.body.messages?.find((m) => m.role === "user")?.content ?? "";
}

/** The number the prompt gave the passage containing `phrase` (0 when none does). */
export function passageNumber(req: ChatRequest, phrase: string): number {
  const prompt = promptOf(req);
  for (const m of prompt.matchAll(/^\[(\d+)\] \([^\n]*\)\n([\s\S]*?)(?=\n\[\d+\] \(|\nQuestion: )/gm)) {
    if (m[2]!.includes(phrase)) return Number(m[1]);
  }
  return 0;
}

function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

async function writeSlowly(res: ServerResponse, parts: string[]): Promise<void> {
  for (const part of parts) {
    res.write(part);
    // Let each part leave as its own TCP write, so the client sees real chunks.
    await new Promise((r) => setTimeout(r, 2));
  }
}

function openAIReply(res: ServerResponse, req: ChatRequest, reply: { text: string; chunkSize?: number }): Promise<void> | void {
  if (!req.body.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "chatcmpl-1",
        object: "chat.completion",
        model: req.body.model,
        choices: [{ index: 0, message: { role: "assistant", content: reply.text }, finish_reason: "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      }),
    );
    return;
  }
  res.writeHead(200, { "content-type": "text/event-stream" });
  const events = [
    { choices: [{ index: 0, delta: { role: "assistant", content: "" }, finish_reason: null }] },
    ...pieces(reply.text, reply.chunkSize ?? 7).map((content) => ({ choices: [{ index: 0, delta: { content }, finish_reason: null }] })),
    { choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
  ].map((e) => `data: ${JSON.stringify({ id: "chatcmpl-1", object: "chat.completion.chunk", ...e })}\n\n`);
  // Split events mid-line too: a client must carry partial lines across chunks.
  const wire = (events.join("") + "data: [DONE]\n\n").match(/[\s\S]{1,23}/g) ?? [];
  return writeSlowly(res, wire).then(() => void res.end());
}

function ollamaReply(res: ServerResponse, req: ChatRequest, reply: { text: string; chunkSize?: number }): Promise<void> | void {
  const done = { model: req.body.model, done: true, done_reason: "stop", prompt_eval_count: 90, eval_count: 15 };
  if (req.body.stream === false) {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ ...done, message: { role: "assistant", content: reply.text } }));
    return;
  }
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  const lines = [
    ...pieces(reply.text, reply.chunkSize ?? 5).map((content) => ({ model: req.body.model, message: { role: "assistant", content }, done: false })),
    { ...done, message: { role: "assistant", content: "" } },
  ].map((l) => JSON.stringify(l) + "\n");
  return writeSlowly(res, (lines.join("").match(/[\s\S]{1,17}/g) ?? [])).then(() => void res.end());
}

/** Start a chat server whose replies `script` decides (given the request and its 1-based number). */
export async function startChatServer(script: (req: ChatRequest, n: number) => ChatReply): Promise<ChatServer> {
  const requests: ChatRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const entry: ChatRequest = { path: req.url ?? "", headers: req.headers, raw, body: raw === "" ? {} : JSON.parse(raw) };
      requests.push(entry);
      const reply = script(entry, requests.length);
      if ("status" in reply) {
        res.writeHead(reply.status, { "content-type": "application/json", ...reply.headers });
        res.end(reply.body);
        return;
      }
      if ("breakAfter" in reply) {
        res.writeHead(200, { "content-type": entry.path.includes("/api/chat") ? "application/x-ndjson" : "text/event-stream" });
        res.write(
          entry.path.includes("/api/chat")
            ? JSON.stringify({ message: { content: reply.breakAfter }, done: false }) + "\n"
            : `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: reply.breakAfter } }] })}\n\n`,
        );
        setTimeout(() => res.destroy(), 5);
        return;
      }
      if (entry.path.endsWith("/chat/completions")) void openAIReply(res, entry, reply);
      else if (entry.path === "/api/chat") void ollamaReply(res, entry, reply);
      else {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: "not found" }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  };
}
