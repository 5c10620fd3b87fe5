/**
 * Tracing end to end: the real `grk` processes with the standard OTEL_*
 * variables send their spans over OTLP/HTTP to a receiver started here, which
 * decodes the real wire format. A search through `grk serve` arrives as one
 * trace (tool call → search → its stages → verifications) carrying the
 * request id that the JSON access log and the response carry, and no span
 * attribute or log line carries the query or the documents' text.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tracingRequested } from "../src/obs/tracing-setup.js";
import { grk, grkServe, tempDir } from "./support/cli.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "./support/otlp-receiver.js";

// Words that occur only in the query and the document: if any reaches a span or a log line, text leaked.
const QUERY = "zanzibar quokka ledger";
const DOC_TEXT = "# Ledger\n\nThe zanzibar quokka keeps the ledger of every citation offset.\n";

let receiver: OtlpReceiver;
let dir: string;
let cleanup: () => void;

function tracingEnv(): Record<string, string> {
  return {
    OTEL_TRACES_EXPORTER: "otlp",
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_SERVICE_NAME: "grk-under-test",
    OTEL_BSP_SCHEDULE_DELAY: "50",
  };
}

function leaks(span: ReceivedSpan): string[] {
  return Object.entries(span.attributes)
    .filter(([, v]) => typeof v === "string" && /zanzibar|quokka/i.test(v))
    .map(([k]) => `${span.name}.${k}`);
}

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  ({ dir, cleanup } = tempDir("grk-otel-"));
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "docs", "ledger.md"), DOC_TEXT);
  writeFileSync(join(dir, "docs", "other.txt"), "Plain notes about backups.\n");
});
afterAll(async () => {
  await receiver.close();
  cleanup();
});

describe("tracing over OTLP/HTTP", () => {
  it("grk ingest sends a trace of its stages with counts, no paths or text", async () => {
    const res = grk(["ingest", "docs"], { cwd: dir, env: tracingEnv() });
    expect(res.code, res.stderr).toBe(0);
    const run = await receiver.waitFor((s) => s.name === "groundkit.ingest");
    const trace = receiver.spans.filter((s) => s.traceId === run.traceId);
    const names = new Set(trace.map((s) => s.name));
    for (const stage of ["discover", "read", "extract", "chunk", "commit"]) expect(names).toContain(`groundkit.ingest.${stage}`);
    expect(run.attributes).toMatchObject({
      "groundkit.collection": "default",
      "groundkit.ingest.files_seen": 2,
      "groundkit.ingest.indexed": 2,
      "groundkit.ingest.failed": 0,
    });
    expect(run.resource["service.name"]).toBe("grk-under-test");
    const discover = trace.find((s) => s.name === "groundkit.ingest.discover")!;
    expect(discover.parentSpanId).toBe(run.spanId);
    expect(trace.filter((s) => s.name === "groundkit.ingest.read").every((s) => s.parentSpanId === discover.spanId)).toBe(true);
    const allValues = trace.flatMap((s) => Object.values(s.attributes)).filter((v) => typeof v === "string");
    expect(allValues.filter((v) => v.includes(dir))).toEqual([]);
    expect(trace.flatMap(leaks)).toEqual([]);
    // What the exporter really sent: OTLP JSON to the traces path.
    expect(receiver.requests.every((r) => r.path === "/v1/traces" && r.contentType.startsWith("application/json"))).toBe(true);
  });

  it("a search through grk serve continues the caller's trace and carries the request id of the JSON access log", async () => {
    // The caller's W3C trace context: the tool call's span must join this trace, under this span.
    const callerTrace = "4bf92f3577b34da6a3ce929d0e0e4736";
    const callerSpan = "00f067aa0ba902b7";
    const { url, child } = await grkServe(["--port", "0", "--log-format", "json"], { cwd: dir, env: tracingEnv() });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
    let requestId: string;
    try {
      const res = await fetch(`${url}/v1/search`, {
        method: "POST",
        headers: { "content-type": "application/json", traceparent: `00-${callerTrace}-${callerSpan}-01` },
        body: JSON.stringify({ query: QUERY, verify: true, top_k: 3 }),
      });
      expect(res.status).toBe(200);
      requestId = res.headers.get("x-request-id")!;
      const body = (await res.json()) as { results: Array<{ verification: { verdict: string } }> };
      expect(body.results.length).toBeGreaterThan(0);
      await receiver.waitFor((s) => s.name === "groundkit.tool.search" && s.attributes["groundkit.request_id"] === requestId);
    } finally {
      child.kill("SIGTERM");
      await exited;
    }

    const tool = receiver.spans.find((s) => s.name === "groundkit.tool.search" && s.attributes["groundkit.request_id"] === requestId)!;
    expect(tool.attributes).toMatchObject({ "groundkit.tool": "search", "groundkit.transport": "rest" });
    expect([tool.traceId, tool.parentSpanId]).toEqual([callerTrace, callerSpan]);
    const trace = receiver.spans.filter((s) => s.traceId === tool.traceId);
    const byName = (name: string) => trace.filter((s) => s.name === name);
    const search = byName("groundkit.search")[0]!;
    expect(search.parentSpanId).toBe(tool.spanId);
    expect(search.attributes).toMatchObject({
      "groundkit.collection": "default",
      "groundkit.search.mode": "bm25",
      "groundkit.search.top_k": 3,
      "groundkit.search.verify": true,
      "groundkit.search.hits": 1,
    });
    for (const stage of ["analyze", "lexical", "verify"]) expect(byName(`groundkit.search.${stage}`)[0]?.parentSpanId).toBe(search.spanId);
    expect(byName("groundkit.search.analyze")[0]!.attributes["groundkit.search.terms"]).toBe(3);
    const verifyStage = byName("groundkit.search.verify")[0]!;
    expect(verifyStage.attributes).toMatchObject({ "groundkit.verify.verified": 1, "groundkit.verify.drifted": 0 });
    const verdicts = byName("groundkit.verify");
    expect(verdicts.map((s) => [s.parentSpanId, s.attributes["groundkit.verify.verdict"], s.attributes["groundkit.source_class"]])).toEqual([
      [verifyStage.spanId, "verified", "text"],
    ]);
    expect(trace.flatMap(leaks)).toEqual([]);

    const lines = stderr
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const access = lines.find((l) => l.msg === "request" && l.path === "/v1/search");
    expect(access).toMatchObject({ request_id: requestId!, tool: "search", transport: "rest", status: 200, trace_id: tool.traceId });
    expect(typeof access!.duration_ms).toBe("number");
    expect(stderr).not.toMatch(/zanzibar|quokka/i);
  });
});

describe("turning tracing on", () => {
  it("is off without the OTEL variables and with OTEL_SDK_DISABLED or OTEL_TRACES_EXPORTER=none", () => {
    expect(tracingRequested({})).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "otlp", OTEL_SDK_DISABLED: "true" })).toBe(false);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318" })).toBe(true);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
  });

  it("a collector that is down costs a warning, not the command's result or its exit", async () => {
    // A port that was just free: nothing listens on it.
    const gone = await startOtlpReceiver();
    await gone.close();
    const res = grk(["search", "quokka", "--json"], { cwd: dir, env: { ...tracingEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: gone.url } });
    expect(res.code, res.stderr).toBe(0);
    expect(JSON.parse(res.stdout).results.length).toBe(1);
    expect(res.stderr).toMatch(/^warning: tracing: /m);
    expect(res.stderr).not.toMatch(/zanzibar|quokka/i);
  });

  it("refuses an exporter or protocol it cannot send with a typed error, through the real CLI", () => {
    const bad = grk(["collections"], { cwd: dir, env: { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" } });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error\[INVALID_CONFIG\]: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported.*http\/json/m);
    expect(bad.stderr).not.toMatch(/\n\s+at /);
    const zipkin = grk(["collections"], { cwd: dir, env: { OTEL_TRACES_EXPORTER: "zipkin" } });
    expect(zipkin.code).toBe(2);
    expect(zipkin.stderr).toContain("OTEL_TRACES_EXPORTER=zipkin is not supported");
  });
});
