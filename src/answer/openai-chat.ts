/**
 * OpenAI-compatible chat (OpenAI, vLLM, LM Studio, llama.cpp server, LiteLLM…):
 * `POST …/v1/chat/completions` with `{model, messages}` answered by
 * `{choices: [{message: {content}, finish_reason}], usage}`, or, with
 * `stream: true`, by Server-Sent Events whose `data:` lines carry
 * `{choices: [{delta: {content}}]}` and end with `data: [DONE]`.
 *
 * The key is read from the environment variable named by `api_key_env`, sent
 * as a bearer token and kept in this closure only (scrubbed from any error).
 */
import { apiUrl, postWithRetry, readApiKey, scrubSecret } from "../net/http-retry.js";
import type { z } from "zod";
import type { OpenAIChatConfigSchema } from "./chat-config.js";
import { chatPostOptions, DEFAULT_MAX_ANSWER_TOKENS, malformedReply, tokenCount, type ChatProvider, type ChatTestHooks, type Completion } from "./chat-provider.js";
import { allLines, LineSplitter, sseData } from "./stream-lines.js";

type OpenAIChatConfig = z.infer<typeof OpenAIChatConfigSchema>;

const SERVICE = "OpenAI-compatible chat";

/** The chat endpoint for a base URL: `/v1/chat/completions`, or `/chat/completions` when the base ends in `/v1`. */
export function openAIChatUrl(baseUrl: string): string {
  const endsWithV1 = /\/v1\/*$/.test(new URL(apiUrl(baseUrl, "")).pathname);
  return apiUrl(baseUrl, endsWithV1 ? "chat/completions" : "v1/chat/completions");
}

interface Choice {
  message?: { content?: unknown };
  delta?: { content?: unknown };
  finish_reason?: unknown;
}

interface Usage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
}

/** An error object a server put in its answer, named by its code or type only (a message could echo the request). */
function errorIn(json: unknown): string | undefined {
  const error = (json as { error?: unknown } | null)?.error;
  if (error === undefined || error === null) return undefined;
  const e = error as { code?: unknown; type?: unknown };
  const name = [e.code, e.type].find((v) => typeof v === "string" && /^[\w.-]{1,64}$/.test(v));
  return typeof name === "string" ? `an error (${name})` : "an error";
}

/** Accumulates a streamed answer from SSE lines. */
class SseAnswer {
  text = "";
  finish: string | null = null;
  usage: Usage = {};
  done = false;
  sawEvent = false;

  constructor(private readonly onToken: ((delta: string) => void) | undefined) {}

  line(line: string): void {
    const data = sseData(line);
    if (data === undefined || this.done) return;
    if (data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      throw malformedReply(SERVICE, "a stream event that is not JSON");
    }
    const failure = errorIn(json);
    if (failure !== undefined) throw malformedReply(SERVICE, `${failure} in its stream`);
    this.sawEvent = true;
    const event = json as { choices?: Choice[]; usage?: Usage };
    if (event.usage) this.usage = event.usage;
    const choice = Array.isArray(event.choices) ? event.choices[0] : undefined;
    if (!choice) return;
    const delta = choice.delta?.content;
    if (typeof delta === "string" && delta !== "") {
      this.text += delta;
      this.onToken?.(delta);
    }
    if (typeof choice.finish_reason === "string") this.finish = choice.finish_reason;
  }
}

/** Parse a whole (non-streamed) chat completion. */
function parseCompletion(text: string): Completion {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformedReply(SERVICE, "a body that is not JSON");
  }
  const failure = errorIn(json);
  if (failure !== undefined) throw malformedReply(SERVICE, failure);
  const body = json as { choices?: Choice[]; usage?: Usage };
  const choice = Array.isArray(body.choices) ? body.choices[0] : undefined;
  const content = choice?.message?.content;
  if (typeof content !== "string") throw malformedReply(SERVICE, 'no "choices[0].message.content" string');
  return {
    text: content,
    finish_reason: typeof choice?.finish_reason === "string" ? choice.finish_reason : null,
    usage: { prompt_tokens: tokenCount(body.usage?.prompt_tokens), completion_tokens: tokenCount(body.usage?.completion_tokens) },
  };
}

/**
 * Create an OpenAI-compatible chat provider.
 *
 * @throws GroundkitError INVALID_CONFIG when `api_key_env` names an unset variable
 */
export function createOpenAIChat(config: OpenAIChatConfig, hooks: ChatTestHooks = {}): ChatProvider {
  const url = openAIChatUrl(config.base_url);
  const apiKey = readApiKey(config.api_key_env, hooks.env ?? process.env);
  const headers: Record<string, string> = apiKey !== undefined ? { authorization: `Bearer ${apiKey}` } : {};
  return {
    provider: "openai",
    model: config.model,
    async complete(messages, opts = {}) {
      const stream = opts.onToken !== undefined;
      const answer = new SseAnswer(opts.onToken);
      const lines = new LineSplitter();
      try {
        const response = await postWithRetry(
          url,
          {
            model: config.model,
            messages,
            temperature: config.temperature ?? 0,
            max_tokens: opts.maxTokens ?? config.max_answer_tokens ?? DEFAULT_MAX_ANSWER_TOKENS,
            stream,
          },
          {
            ...chatPostOptions(config, hooks, SERVICE, {
              accept: stream ? "text/event-stream" : "application/json",
              onBodyChunk: stream ? (chunk) => lines.push(chunk).forEach((l) => answer.line(l)) : undefined,
            }),
            headers,
          },
        );
        if (!stream || response.contentType === "application/json") {
          const whole = parseCompletion(response.text);
          if (stream && whole.text !== "") opts.onToken?.(whole.text);
          return whole;
        }
        lines.end().forEach((l) => answer.line(l));
        if (!answer.sawEvent && response.text.trim() !== "") {
          // A server that ignored `stream` and sent a plain body under another content type.
          allLines(response.text).forEach((l) => answer.line(l));
        }
        if (!answer.sawEvent) throw malformedReply(SERVICE, "an empty event stream");
        return {
          text: answer.text,
          finish_reason: answer.finish,
          usage: { prompt_tokens: tokenCount(answer.usage.prompt_tokens), completion_tokens: tokenCount(answer.usage.completion_tokens) },
        };
      } catch (err) {
        throw scrubSecret(err, apiKey);
      }
    },
  };
}
