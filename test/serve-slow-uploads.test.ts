/**
 * Issue 25 item 11: 256 idle upload connections (each declaring a 100 KB body
 * and sending almost nothing) made the server refuse everything for 30 s.
 * Real sockets on 127.0.0.1: hostile clients connect from other loopback
 * addresses, declare 100 KB bodies and send one byte; while every one of them
 * is still held or already refused, a normal client's searches are answered;
 * then each held upload is answered 408 BODY_TOO_SLOW and closed. Counts and
 * orderings only.
 */
import { connect, type Socket } from "node:net";
import { describe, expect, it } from "vitest";
import { servedCorpus } from "./service-fixtures.js";

const served = servedCorpus();

/** One hostile upload: what came back on its socket and whether it is closed. */
interface Upload {
  socket: Socket;
  received: string;
  closed: boolean;
}

/** Open `count` connections from `localAddress`, each sending headers of a 100 KB body and its first byte. */
function slowUploads(localAddress: string, count: number): Upload[] {
  const port = new URL(served.server.url).port;
  return Array.from({ length: count }, () => {
    const socket = connect({ host: "127.0.0.1", port: Number(port), localAddress });
    const upload: Upload = { socket, received: "", closed: false };
    socket.setEncoding("utf8");
    socket.on("data", (d: string) => (upload.received += d));
    socket.on("error", () => undefined);
    socket.on("close", () => (upload.closed = true));
    socket.write(
      `POST /v1/search HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: 102400\r\n\r\n{`,
    );
    return upload;
  });
}

/** Requests the server holds: in flight, or still receiving their body (a gauge absent counts 0). */
async function held(): Promise<number> {
  const res = await fetch(`${served.server.url}/metrics`);
  const lines = (await res.text()).split("\n");
  const gauge = (name: string): number => Number(lines.find((l) => l.startsWith(`${name} `))?.split(" ").pop() ?? 0);
  return gauge("groundkit_http_requests_in_flight") + gauge("groundkit_http_requests_receiving_body");
}

async function until(ready: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ready())) await new Promise((resolve) => setTimeout(resolve, 20));
}

async function searchStatus(): Promise<number> {
  const res = await fetch(`${served.server.url}/v1/search`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "citation offsets", top_k: 3 }),
  });
  await res.arrayBuffer();
  return res.status;
}

const status = (u: Upload): string => /^HTTP\/1\.1 (\d{3})/.exec(u.received)?.[1] ?? (u.closed ? "closed" : "waiting");

function tally(uploads: Upload[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const u of uploads) counts[status(u)] = (counts[status(u)] ?? 0) + 1;
  return counts;
}

/** Every upload is either held by the server or was refused (answered or closed). */
async function settledIn(uploads: Upload[]): Promise<void> {
  await until(async () => uploads.filter((u) => status(u) !== "waiting").length + (await held()) === uploads.length);
}

describe("slow uploads", () => {
  it("keeps serving while 256 uploads from four addresses stall, then answers them 408", { timeout: 60_000 }, async () => {
    const uploads = ["127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"].flatMap((a) => slowUploads(a, 64));
    await settledIn(uploads);
    // Waiting for a body takes no slot: every slot is there for requests ready to run.
    expect(await Promise.all(Array.from({ length: 8 }, searchStatus))).toEqual(Array(8).fill(200));
    expect(tally(uploads)).toEqual({ waiting: 256 });
    await until(() => uploads.every((u) => u.closed));
    expect(tally(uploads)).toEqual({ "408": 256 });
    expect(uploads.find((u) => status(u) === "408")!.received).toMatch(/"code":"BODY_TOO_SLOW"/);
  });

  it("closes connections beyond the per-client bound at once, and keeps serving others", { timeout: 60_000 }, async () => {
    const uploads = slowUploads("127.0.0.6", 256);
    await settledIn(uploads);
    expect(await Promise.all(Array.from({ length: 8 }, searchStatus))).toEqual(Array(8).fill(200));
    expect(tally(uploads)).toEqual({ waiting: 128, closed: 128 });
    await until(() => uploads.every((u) => u.closed));
    expect(tally(uploads)).toEqual({ "408": 128, closed: 128 });
  });
});
