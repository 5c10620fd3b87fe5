/**
 * URL refusals through the real CLI (issue 12): non-http(s) schemes are
 * URL_REFUSED naming the scheme (not looked up as a path), metadata endpoints
 * are SSRF_BLOCKED whatever --allow-private-network says, and no query value
 * reaches the summary, stdout or stderr.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, grkAsync, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let server: Server;
let blankPage: string;
beforeAll(async () => {
  work = tempDir("grk-url-refusals-");
  // A whitespace-only page: ingest skips it and names it in the summary.
  server = createServer((_req, res) => res.writeHead(200, { "content-type": "text/plain" }).end("   \n"));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  blankPage = `http://127.0.0.1:${(server.address() as AddressInfo).port}/blank.txt?page=SECRETVALUE`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  work.cleanup();
});

type Failure = { source: string; code: string; message: string };

function ingest(args: string[], json: boolean) {
  const res = grk(["ingest", ...args, ...(json ? ["--json"] : [])], { cwd: work.dir });
  const failed = json ? (JSON.parse(res.stdout || "{}") as { failed: Failure[] }).failed : [];
  return { ...res, failed };
}

const SCHEMES = [
  ["file:///etc/passwd", "file"],
  ["file:/etc/passwd", "file"],
  ["ftp://127.0.0.1/x.txt", "ftp"],
  ["gopher://127.0.0.1/", "gopher"],
] as const;

const METADATA = [
  "http://[fd20:ce::254]/computeMetadata/v1/",
  "http://168.63.129.16/machine?comp=goalstate",
  "http://[::ffff:168.63.129.16]/",
  "http://metadata.google.internal/computeMetadata/v1/",
];

const SECRET_QUERIES = [
  "http://127.0.0.1:1/x?token2=SECRETVALUE", // fetch failure, a name that is not credential-shaped
  "http://127.0.0.1:1/x?PHPSESSID=SECRETVALUE", // credential-shaped, refused
  "http://127.0.0.1:1/app;jsessionid=SECRETVALUE",
];

// Few processes on purpose: each CLI start costs seconds on a shared machine.
describe("grk ingest refuses what it must not fetch", () => {
  it("without --allow-private-network: non-http(s) schemes are URL_REFUSED naming the scheme; metadata is SSRF_BLOCKED", () => {
    const res = ingest([...SCHEMES.map(([url]) => url), ...METADATA], true);
    expect(res.code).toBe(1);
    expect(res.failed.map((f) => f.code)).toEqual([...SCHEMES.map(() => "URL_REFUSED"), ...METADATA.map(() => "SSRF_BLOCKED")]);
    SCHEMES.forEach(([url, scheme], i) => {
      expect(res.failed[i]!.source, url).toBe(new URL(url).href);
      expect(res.failed[i]!.message, url).toContain(`scheme "${scheme}" is not http or https`);
    });
    for (const f of res.failed.slice(SCHEMES.length)) expect(f.message).toMatch(/metadata/);
  });

  it("with --allow-private-network: metadata stays SSRF_BLOCKED and no query value is shown", async () => {
    // Async: the blank page is served from this process's event loop.
    const res = await grkAsync(["ingest", ...METADATA, ...SECRET_QUERIES, blankPage, "--allow-private-network", "--json"], {
      cwd: work.dir,
    });
    const summary = JSON.parse(res.stdout) as { failed: Failure[]; skipped: Array<{ source: string }> };
    expect(res.code).toBe(1);
    expect(summary.skipped.map((s) => s.source)).toEqual([blankPage.replace("SECRETVALUE", "REDACTED")]);
    expect(summary.failed.map((f) => f.code)).toEqual([
      ...METADATA.map(() => "SSRF_BLOCKED"),
      "FETCH_FAILED",
      "URL_REFUSED",
      "URL_REFUSED",
    ]);
    expect(res.stdout + res.stderr).not.toContain("SECRETVALUE");
    expect(summary.failed[METADATA.length]!.message).toContain("http://127.0.0.1:1/x?token2=REDACTED");
  });

  it("prints the same refusals as text, without a query value or a stack trace", () => {
    const res = ingest(["file:///etc/passwd", ...SECRET_QUERIES, "--allow-private-network"], false);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("failed file:///etc/passwd: error[URL_REFUSED]");
    expect(res.stdout).toContain("token2=REDACTED");
    expect(res.stdout + res.stderr).not.toContain("SECRETVALUE");
    expect(res.stderr).not.toMatch(/\bat .*\.js:\d+/);
  });
});
