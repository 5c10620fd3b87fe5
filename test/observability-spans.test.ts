/**
 * The span helpers with the real OpenTelemetry SDK in process (an in-memory
 * exporter, the async-hooks context manager): nesting across awaits, errors
 * recorded by code and rethrown, the answer helper another command builds
 * on, and the no-op path when no SDK is registered.
 */
import { context, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from "@opentelemetry/sdk-trace";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openCollection } from "../src/collection/index.js";
import { GroundkitError } from "../src/core/errors.js";
import { withAnswerSpan, withSpan } from "../src/obs/tracing.js";
import { makeCorpus, type Corpus } from "./service-fixtures.js";

describe("without an SDK", () => {
  it("runs the function and hands it a span that records nothing", async () => {
    expect(withSpan("sync", {}, (span) => (span.isRecording() ? "recording" : "no-op"))).toBe("no-op");
    await expect(withSpan("async", {}, async () => 42)).resolves.toBe(42);
  });
});

describe("with the SDK registered", () => {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let corpus: Corpus;

  beforeAll(async () => {
    corpus = await makeCorpus();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(provider);
  });
  afterEach(() => exporter.reset());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    corpus.cleanup();
  });

  it("records a thrown error's code (never its message) on the span, sets ERROR and rethrows", async () => {
    await expect(
      withSpan("failing", {}, async () => {
        throw new GroundkitError("QUERY_EMPTY", "the secret query text");
      }),
    ).rejects.toThrow("the secret query text");
    expect(() =>
      withSpan("failing-sync", {}, () => {
        throw new Error("boom with details");
      }),
    ).toThrow("boom");
    const [asyncSpan, syncSpan] = exporter.getFinishedSpans();
    expect(asyncSpan!.attributes["groundkit.error.code"]).toBe("QUERY_EMPTY");
    expect(asyncSpan!.status).toEqual({ code: 2, message: "QUERY_EMPTY" });
    expect(syncSpan!.attributes["groundkit.error.code"]).toBe("INTERNAL");
    expect(JSON.stringify([asyncSpan!.attributes, syncSpan!.attributes, asyncSpan!.status])).not.toContain("secret");
  });

  it("withAnswerSpan is the parent of the search it runs and counts the kept citations' verdicts", async () => {
    const col = await openCollection({ indexDir: corpus.indexDir });
    try {
      const answer = await withAnswerSpan({ collection: col.name, mode: "bm25", provider: "test:chat" }, async (done) => {
        const hits = await col.search("citation offsets", { verify: true, topK: 2 });
        done({ passages: hits.length, verdicts: hits.map((h) => h.verification?.verdict), abstained: false });
        return hits.length;
      });
      const spans = exporter.getFinishedSpans();
      const root = spans.find((s) => s.name === "groundkit.answer")!;
      const search = spans.find((s) => s.name === "groundkit.search")!;
      expect(search.parentSpanContext?.spanId).toBe(root.spanContext().spanId);
      expect(root.attributes).toMatchObject({
        "groundkit.collection": "default",
        "groundkit.search.mode": "bm25",
        "groundkit.answer.provider": "test:chat",
        "groundkit.answer.passages": answer,
        "groundkit.answer.abstained": false,
        "groundkit.verify.verified": answer,
        "groundkit.verify.unresolvable": 0,
      });
      // Every verification of the search sits under the search's verify stage, in the same trace.
      const stage = spans.find((s) => s.name === "groundkit.search.verify")!;
      const verifies = spans.filter((s) => s.name === "groundkit.verify");
      expect(verifies).toHaveLength(answer);
      for (const v of verifies) expect(v.parentSpanContext?.spanId).toBe(stage.spanContext().spanId);
      expect(new Set(spans.map((s) => s.spanContext().traceId)).size).toBe(1);
    } finally {
      await col.close();
    }
  });
});
