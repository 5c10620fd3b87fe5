/**
 * A local OTLP/HTTP trace receiver for tests: it speaks the collector's real
 * wire protocol (POST /v1/traces, an ExportTraceServiceRequest in the OTLP
 * JSON encoding, optionally gzip-compressed; 200 with an
 * ExportTraceServiceResponse) and decodes every span with its resource, its
 * ids and its typed attributes.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

/** One received span. */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  attributes: Record<string, AttributeValue>;
  status: { code: number; message?: string };
  resource: Record<string, AttributeValue>;
  scope: string;
}

interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}
interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: OtlpAnyValue[] };
}
interface ExportTraceServiceRequest {
  resourceSpans?: Array<{
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: Array<{
      scope?: { name?: string };
      spans?: Array<{
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        attributes?: OtlpKeyValue[];
        status?: { code?: number; message?: string };
      }>;
    }>;
  }>;
}

/** A running receiver. */
export interface OtlpReceiver {
  /** Base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  spans: ReceivedSpan[];
  /** Content types and encodings of the requests received (what the exporter really sent). */
  requests: Array<{ path: string; contentType: string; contentEncoding: string }>;
  /** Resolve once a span matching `pred` has arrived (rejects after `timeoutMs`, a hang guard, not an assertion on time). */
  waitFor(pred: (s: ReceivedSpan) => boolean, timeoutMs?: number): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

function decodeValue(v: OtlpAnyValue): AttributeValue {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(decodeValue);
  return null;
}

function decodeAttributes(list: OtlpKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, decodeValue(kv.value)]));
}

/** Decode an ExportTraceServiceRequest (OTLP JSON) into spans. */
export function decodeTraceRequest(body: ExportTraceServiceRequest): ReceivedSpan[] {
  const out: ReceivedSpan[] = [];
  for (const rs of body.resourceSpans ?? []) {
    const resource = decodeAttributes(rs.resource?.attributes);
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? "",
          name: s.name,
          attributes: decodeAttributes(s.attributes),
          status: { code: s.status?.code ?? 0, ...(s.status?.message ? { message: s.status.message } : {}) },
          resource,
          scope: ss.scope?.name ?? "",
        });
      }
    }
  }
  return out;
}

function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/** Start a receiver on 127.0.0.1 (an ephemeral port). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const requests: OtlpReceiver["requests"] = [];
  const waiters: Array<() => void> = [];
  const server: Server = createServer((req, res) => {
    void (async () => {
      const contentType = req.headers["content-type"] ?? "";
      const contentEncoding = req.headers["content-encoding"] ?? "";
      requests.push({ path: req.url ?? "", contentType, contentEncoding });
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      if (!contentType.startsWith("application/json")) {
        // This receiver decodes the JSON encoding only; a protobuf body is refused as a collector would refuse an unknown type.
        res.writeHead(415, { "content-type": "application/json" }).end(JSON.stringify({ code: 3, message: "unsupported content type" }));
        return;
      }
      let raw = await readBody(req);
      if (contentEncoding === "gzip") raw = gunzipSync(raw);
      spans.push(...decodeTraceRequest(JSON.parse(raw.toString("utf8")) as ExportTraceServiceRequest));
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      for (const w of waiters.splice(0)) w();
    })().catch(() => res.writeHead(400).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    requests,
    waitFor(pred, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no matching span; received: ${spans.map((s) => s.name).join(", ")}`)), timeoutMs);
        const check = () => {
          const found = spans.find(pred);
          if (found) {
            clearTimeout(timer);
            resolve(found);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
