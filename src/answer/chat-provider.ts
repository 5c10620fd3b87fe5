/**
 * The chat provider interface: messages in, the model's text out, with the
 * tokens handed to `onToken` as they stream. Concrete providers are
 * openai-chat.ts and ollama-chat.ts; chat-registry.ts picks one.
 */
import { GroundkitError } from "../core/errors.js";
import type { Resolver } from "../net/ssrf-guard.js";
import type { RetryPolicy, StreamingPostOptions } from "../net/http-retry.js";
import type { ChatConfig } from "./chat-config.js";

/** One chat message. */
export interface ChatMessage {
  role: "system" | "user" | "assistant";
  content: string;
}

/** Options of one completion. */
export interface CompleteOptions {
  /** Receive the answer's text as it streams (the provider then asks the server to stream). */
  onToken?: ((delta: string) => void) | undefined;
  /** Largest answer in tokens (overrides the config). */
  maxTokens?: number | undefined;
}

/** What the model returned. */
export interface Completion {
  text: string;
  /** Why the model stopped ("stop", "length", …) when the server says. */
  finish_reason: string | null;
  /** Token counts when the server reports them. */
  usage: { prompt_tokens: number | null; completion_tokens: number | null };
}

/** A configured chat model. */
export interface ChatProvider {
  /** "openai" | "ollama". */
  readonly provider: string;
  readonly model: string;
  complete(messages: readonly ChatMessage[], opts?: CompleteOptions): Promise<Completion>;
}

/** What tests (and only tests) may inject: a DNS resolver and a backoff without real waits. */
export interface ChatTestHooks {
  resolver?: Resolver;
  retry?: RetryPolicy;
  env?: NodeJS.ProcessEnv;
}

/** The model's reply was not what the wire format promises. */
export function malformedReply(service: string, why: string): GroundkitError {
  return new GroundkitError("GENERATION_FAILED", `${service} answered with ${why}.`, { service });
}

/** Default per-request deadline: a long streamed answer from a slow local model takes a while. */
export const DEFAULT_CHAT_TIMEOUT_MS = 120_000;
/** Default answer length in tokens. */
export const DEFAULT_MAX_ANSWER_TOKENS = 1024;

/** A token count a server reported, or null. */
export function tokenCount(v: unknown): number | null {
  return typeof v === "number" && Number.isFinite(v) ? v : null;
}

/** The retry, deadline and SSRF options every chat request shares. */
export function chatPostOptions(
  config: ChatConfig,
  hooks: ChatTestHooks,
  service: string,
  stream: { accept: string; onBodyChunk?: ((chunk: Uint8Array) => void) | undefined },
): StreamingPostOptions {
  return {
    service,
    failureCode: "GENERATION_FAILED",
    accept: stream.accept,
    allowPrivateNetwork: config.allow_private_network ?? false,
    timeoutMs: config.timeout_ms ?? DEFAULT_CHAT_TIMEOUT_MS,
    retry: { ...hooks.retry, ...(config.max_attempts !== undefined ? { maxAttempts: config.max_attempts } : {}) },
    ...(hooks.resolver !== undefined ? { resolver: hooks.resolver } : {}),
    ...(stream.onBodyChunk !== undefined ? { onBodyChunk: stream.onBodyChunk } : {}),
  };
}
