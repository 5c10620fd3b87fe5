/**
 * Spans for the work an operator wants to see: ingest, search, verify, answer
 * and the service's tool calls, through `@opentelemetry/api` only. Until an SDK
 * is registered (tracing-setup.ts, when the user turns tracing on) every call
 * here reaches the API's no-op tracer, which allocates nothing per span worth
 * measuring (docs/operations.md has the bench before and after).
 *
 * Attributes are counts, names and verdicts: never document text, queries,
 * paths or secrets (a span leaves the machine).
 */
import { context, propagation, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import { GroundkitError } from "../core/errors.js";

/** The instrumentation scope every groundkit span is created under. */
export const TRACER_NAME = "groundkit";

/** Attribute names, once, so spans of different layers agree. */
export const ATTR = {
  collection: "groundkit.collection",
  mode: "groundkit.search.mode",
  topK: "groundkit.search.top_k",
  rerank: "groundkit.search.rerank",
  verify: "groundkit.search.verify",
  filters: "groundkit.search.filters",
  terms: "groundkit.search.terms",
  hits: "groundkit.search.hits",
  candidates: "groundkit.search.candidates",
  verdict: "groundkit.verify.verdict",
  sourceClass: "groundkit.source_class",
  requestId: "groundkit.request_id",
  tool: "groundkit.tool",
  transport: "groundkit.transport",
  errorCode: "groundkit.error.code",
  extractorKind: "groundkit.extraction.kind",
  /** How a re-extraction was answered: `cache` (kept text), `shared` (joined a running one) or `run` (extracted now). */
  extractionOutcome: "groundkit.extraction.outcome",
} as const;

/**
 * Run `fn` inside a span named `name` that is the active span for everything
 * `fn` awaits, so nested stages become its children. A thrown error is
 * recorded (its groundkit code, never its message, which may quote input) and
 * rethrown; the span ends on every path. Works for sync and async `fn`.
 *
 * @example
 *   const rows = withSpan("groundkit.search.lexical", {}, (span) => {
 *     const rows = store.searchLexical(terms, limit);
 *     span.setAttribute(ATTR.hits, rows.length);
 *     return rows;
 *   });
 */
export function withSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => T, parent: Context = context.active()): T {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { attributes }, parent, (span) => {
    let result: T;
    try {
      result = fn(span);
    } catch (err) {
      failSpan(span, err);
      span.end();
      throw err;
    }
    if (isPromise(result)) {
      return result.then(
        (value) => {
          span.end();
          return value;
        },
        (err: unknown) => {
          failSpan(span, err);
          span.end();
          throw err;
        },
      ) as T;
    }
    span.end();
    return result;
  });
}

/**
 * Count verdicts onto a span as `groundkit.verify.verified` / `.drifted` /
 * `.unresolvable` (for a search with verify, or an answer's citations).
 */
export function recordVerdicts(span: Span, verdicts: Iterable<string | undefined>): void {
  if (!span.isRecording()) return;
  const counts: Record<string, number> = { verified: 0, drifted: 0, unresolvable: 0 };
  for (const v of verdicts) if (v !== undefined) counts[v] = (counts[v] ?? 0) + 1;
  for (const [verdict, n] of Object.entries(counts)) span.setAttribute(`groundkit.verify.${verdict}`, n);
}

/** What an answer span says about the answer (names and counts; never the question, the prompt or the reply). */
export interface AnswerSpanAttributes {
  collection: string;
  /** Retrieval mode of the passages (bm25, dense, hybrid). */
  mode?: string | undefined;
  /** Chat provider identity, e.g. `openai-compatible:llama3` (never a key or an authenticated URL). */
  provider?: string | undefined;
}

/** What the answer reports once it is done. */
export interface AnswerOutcome {
  /** Passages given to the model. */
  passages: number;
  /** The verdict of each citation the answer kept. */
  verdicts: Iterable<string | undefined>;
  /** True when the answer abstained (nothing grounded enough to say). */
  abstained?: boolean | undefined;
}

/**
 * The span of one `grk answer` / answer tool call, named `groundkit.answer`:
 * the search it runs and the verifications of its citations become its
 * children. Call `done` with the outcome before returning.
 *
 * @example
 *   return withAnswerSpan({ collection: col.name, mode, provider: chat.identity }, async (done) => {
 *     const hits = await col.search(question, { mode, verify: true });
 *     const answer = await generate(hits);
 *     done({ passages: hits.length, verdicts: answer.citations.map((c) => c.verification.verdict), abstained: answer.abstained });
 *     return answer;
 *   });
 */
export function withAnswerSpan<T>(attributes: AnswerSpanAttributes, fn: (done: (outcome: AnswerOutcome) => void) => Promise<T>): Promise<T> {
  const attrs: Attributes = { [ATTR.collection]: attributes.collection };
  if (attributes.mode !== undefined) attrs[ATTR.mode] = attributes.mode;
  if (attributes.provider !== undefined) attrs["groundkit.answer.provider"] = attributes.provider;
  return withSpan("groundkit.answer", attrs, (span) =>
    fn((outcome) => {
      if (!span.isRecording()) return;
      span.setAttribute("groundkit.answer.passages", outcome.passages);
      if (outcome.abstained !== undefined) span.setAttribute("groundkit.answer.abstained", outcome.abstained);
      recordVerdicts(span, outcome.verdicts);
    }),
  );
}

/**
 * The context an incoming request's `traceparent` / `tracestate` headers name
 * (W3C Trace Context), so a caller's trace continues here; the active context
 * when tracing is off or the headers carry none.
 */
export function contextFromHeaders(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(context.active(), headers);
}

/** The active span's trace id, when a recording span is active (for log lines). */
export function activeTraceId(): string | undefined {
  const span = trace.getActiveSpan();
  return span?.isRecording() ? span.spanContext().traceId : undefined;
}

function failSpan(span: Span, err: unknown): void {
  const code = err instanceof GroundkitError ? err.code : "INTERNAL";
  span.setAttribute(ATTR.errorCode, code);
  span.setStatus({ code: SpanStatusCode.ERROR, message: code });
}

function isPromise<T>(value: T): value is T & Promise<Awaited<T>> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}
