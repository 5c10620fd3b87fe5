/** Retry policy: which failures are retried, backoff with jitter, Retry-After. */
import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import {
  apiUrl,
  backoffDelay,
  isRetryable,
  parseRetryAfter,
  RetriesExhausted,
  withRetry,
} from "../src/net/http-retry.js";

const httpError = (status: number, retryAfter?: string): GroundkitError =>
  new GroundkitError("FETCH_FAILED", `Fetching http://x/ failed: HTTP ${status}.`, {
    status,
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });

function failingThen<T>(errors: unknown[], value: T): { attempt: () => Promise<T>; calls: () => number } {
  let calls = 0;
  return {
    attempt: async () => {
      const err = errors[calls++];
      if (err !== undefined) throw err;
      return value;
    },
    calls: () => calls,
  };
}

describe("isRetryable", () => {
  it("retries 429, 5xx, connection errors and timeouts only", () => {
    expect(isRetryable(httpError(429))).toBe(true);
    expect(isRetryable(httpError(500))).toBe(true);
    expect(isRetryable(httpError(503))).toBe(true);
    expect(isRetryable(new GroundkitError("FETCH_FAILED", "connection error", { errorCode: "ECONNRESET" }))).toBe(true);
    expect(isRetryable(new GroundkitError("FETCH_TIMEOUT", "slow"))).toBe(true);
    expect(isRetryable(httpError(400))).toBe(false);
    expect(isRetryable(httpError(401))).toBe(false);
    expect(isRetryable(new GroundkitError("SSRF_BLOCKED", "no"))).toBe(false);
    expect(isRetryable(new GroundkitError("REDIRECT_REFUSED", "no"))).toBe(false);
    expect(isRetryable(new Error("plain"))).toBe(false);
  });
});

describe("parseRetryAfter", () => {
  it("reads delay-seconds and HTTP dates", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("2", now)).toBe(2000);
    expect(parseRetryAfter(" 0 ", now)).toBe(0);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:00:05 GMT", now)).toBe(5000);
    expect(parseRetryAfter("Tue, 31 Dec 2024 23:59:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("backoffDelay", () => {
  it("doubles per retry, jitters within the upper half of the step, and caps", () => {
    const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelay(1, { ...policy, random: () => 0 })).toBe(50);
    expect(backoffDelay(1, { ...policy, random: () => 0.999999 })).toBeCloseTo(100, 3);
    expect(backoffDelay(3, { ...policy, random: () => 0 })).toBe(200);
    expect(backoffDelay(10, { ...policy, random: () => 0 })).toBe(500);
    expect(backoffDelay(10, { ...policy, random: () => 0.999999 })).toBeCloseTo(1000, 2);
  });
});

describe("withRetry", () => {
  it("retries retryable failures with growing waits, then succeeds", async () => {
    const sleeps: number[] = [];
    const op = failingThen([httpError(503), httpError(429)], "ok");
    const result = await withRetry(op.attempt, {
      baseDelayMs: 100,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect(result).toBe("ok");
    expect(op.calls()).toBe(3);
    expect(sleeps).toEqual([50, 100]);
  });

  it("waits at least the server's Retry-After", async () => {
    const sleeps: number[] = [];
    const op = failingThen([httpError(429, "2")], "ok");
    await withRetry(op.attempt, {
      baseDelayMs: 10,
      random: () => 0,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
    });
    expect(sleeps).toEqual([2000]);
  });

  it("fails at once when Retry-After exceeds what the client will wait", async () => {
    const op = failingThen([httpError(429, "3600")], "ok");
    const err = await withRetry(op.attempt, { sleep: async () => undefined }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RetriesExhausted);
    expect((err as RetriesExhausted).reason).toBe("retry-after-too-long");
    expect((err as RetriesExhausted).attempts).toBe(1);
    expect(op.calls()).toBe(1);
  });

  it("stops after maxAttempts and does not retry final errors", async () => {
    const always = failingThen(Array.from({ length: 10 }, () => httpError(500)), "never");
    const err = await withRetry(always.attempt, { maxAttempts: 3, sleep: async () => undefined }).catch((e: unknown) => e);
    expect((err as RetriesExhausted).reason).toBe("exhausted");
    expect(always.calls()).toBe(3);

    const final = failingThen([httpError(404)], "never");
    const err2 = await withRetry(final.attempt, { sleep: async () => undefined }).catch((e: unknown) => e);
    expect((err2 as RetriesExhausted).reason).toBe("final");
    expect(final.calls()).toBe(1);
  });
});

describe("apiUrl", () => {
  it("joins paths and drops query and fragment", () => {
    expect(apiUrl("http://127.0.0.1:11434", "api/embed")).toBe("http://127.0.0.1:11434/api/embed");
    expect(apiUrl("http://127.0.0.1:11434/", "/api/embed")).toBe("http://127.0.0.1:11434/api/embed");
    expect(apiUrl("https://h/proxy/?x=1#f", "rerank")).toBe("https://h/proxy/rerank");
    expect(() => apiUrl("file:///etc/passwd", "x")).toThrow(/http/);
    expect(() => apiUrl("not a url", "x")).toThrow(/not a URL/);
  });
});
