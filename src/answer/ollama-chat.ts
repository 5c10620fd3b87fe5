/**
 * Ollama chat: `POST <base_url>/api/chat` with `{model, messages, stream}`.
 * Not streamed, the answer is one JSON object `{message: {content}, done: true}`;
 * streamed, it is NDJSON, one such object per line with a content fragment,
 * the last with `done: true` and the token counts. Ollama usually runs on
 * loopback, which needs `allow_private_network: true`.
 */
import type { z } from "zod";
import { apiUrl, postWithRetry } from "../net/http-retry.js";
import type { OllamaChatConfigSchema } from "./chat-config.js";
import { chatPostOptions, DEFAULT_MAX_ANSWER_TOKENS, malformedReply, tokenCount, type ChatProvider, type ChatTestHooks, type Completion } from "./chat-provider.js";
import { LineSplitter } from "./stream-lines.js";

type OllamaChatConfig = z.infer<typeof OllamaChatConfigSchema>;

const SERVICE = "Ollama chat";

interface OllamaEvent {
  message?: { content?: unknown };
  done?: unknown;
  done_reason?: unknown;
  prompt_eval_count?: unknown;
  eval_count?: unknown;
  error?: unknown;
}

/** Accumulates NDJSON events (one for a whole answer, many for a stream). */
class OllamaAnswer {
  text = "";
  last: OllamaEvent | undefined;

  constructor(private readonly onToken: ((delta: string) => void) | undefined) {}

  line(line: string): void {
    if (line.trim() === "") return;
    let event: OllamaEvent;
    try {
      event = JSON.parse(line) as OllamaEvent;
    } catch {
      throw malformedReply(SERVICE, "a line that is not JSON");
    }
    // Ollama reports failures as {"error": "..."}; the text may quote the request, so it is not repeated.
    if (event === null || typeof event !== "object") throw malformedReply(SERVICE, "a line that is not a JSON object");
    if (event.error !== undefined) throw malformedReply(SERVICE, "an error");
    const content = event.message?.content;
    if (typeof content === "string" && content !== "") {
      this.text += content;
      this.onToken?.(content);
    }
    this.last = event;
  }

  result(): Completion {
    if (this.last === undefined) throw malformedReply(SERVICE, "no message");
    if (this.last.done !== true) throw malformedReply(SERVICE, "a stream that ended before done: true");
    return {
      text: this.text,
      finish_reason: typeof this.last.done_reason === "string" ? this.last.done_reason : null,
      usage: { prompt_tokens: tokenCount(this.last.prompt_eval_count), completion_tokens: tokenCount(this.last.eval_count) },
    };
  }
}

/** Create an Ollama chat provider. */
export function createOllamaChat(config: OllamaChatConfig, hooks: ChatTestHooks = {}): ChatProvider {
  const url = apiUrl(config.base_url, "api/chat");
  return {
    provider: "ollama",
    model: config.model,
    async complete(messages, opts = {}) {
      const stream = opts.onToken !== undefined;
      const answer = new OllamaAnswer(opts.onToken);
      const lines = new LineSplitter();
      const response = await postWithRetry(
        url,
        {
          model: config.model,
          messages,
          stream,
          options: {
            temperature: config.temperature ?? 0,
            num_predict: opts.maxTokens ?? config.max_answer_tokens ?? DEFAULT_MAX_ANSWER_TOKENS,
          },
        },
        chatPostOptions(config, hooks, SERVICE, {
          accept: stream ? "application/x-ndjson" : "application/json",
          onBodyChunk: stream ? (chunk) => lines.push(chunk).forEach((l) => answer.line(l)) : undefined,
        }),
      );
      if (stream) lines.end().forEach((l) => answer.line(l));
      else for (const l of response.text.split("\n")) answer.line(l);
      return answer.result();
    },
  };
}
