/**
 * `grk serve --workers 2` as real processes on 127.0.0.1: both workers answer
 * on one port (their pids in the access log), /metrics sums the pool, a killed
 * worker is replaced (a log line, the same port) while requests keep
 * succeeding, a request in flight at SIGTERM still completes, and SIGTERM
 * ends every process.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { request as httpRequest, Agent } from "node:http";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { Pool } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "./support/cli.js";
import { makeCorpus, type Corpus } from "./service-fixtures.js";

let corpus: Corpus;
beforeAll(async () => {
  corpus = await makeCorpus();
});
afterAll(() => corpus.cleanup());

interface LogLine {
  msg: string;
  pid?: number;
  worker?: number;
  path?: string;
  status?: number;
  [key: string]: unknown;
}

/** A `grk serve --workers` process and every JSON line it has logged so far. */
class Served {
  readonly lines: LogLine[] = [];
  private waiters: Array<() => void> = [];
  readonly exited: Promise<number | null>;

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    let partial = "";
    child.stderr.on("data", (d: Buffer) => {
      partial += d.toString();
      const parts = partial.split("\n");
      partial = parts.pop()!;
      for (const p of parts) if (p.startsWith("{")) this.lines.push(JSON.parse(p) as LogLine);
      for (const w of this.waiters.splice(0)) w();
    });
    this.exited = new Promise((resolve) => child.once("exit", (code) => resolve(code)));
  }

  /** The first line (after `from`) matching `test`, waiting for it. */
  async line(test: (l: LogLine) => boolean, from = 0): Promise<LogLine> {
    for (;;) {
      const found = this.lines.slice(from).find(test);
      if (found) return found;
      const more = new Promise<void>((r) => this.waiters.push(r));
      const ended = this.exited.then(() => {
        throw new Error(`serve exited; log:\n${this.lines.map((l) => JSON.stringify(l)).join("\n")}`);
      });
      await Promise.race([more, ended]);
    }
  }

  searchPids(from = 0): Set<number> {
    return new Set(this.lines.slice(from).filter((l) => l.msg === "request" && l.path === "/v1/search").map((l) => l.pid!));
  }
}

async function searches(url: string, n: number): Promise<number[]> {
  const pool = new Pool(url, { connections: 8 });
  try {
    return await Promise.all(
      Array.from({ length: n }, async () => {
        const res = await pool.request({
          path: "/v1/search",
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ query: "citation offsets", top_k: 3 }),
        });
        const body = (await res.body.json()) as { results?: unknown[] };
        expect(body.results?.length).toBeGreaterThan(0);
        return res.statusCode;
      }),
    );
  } finally {
    await pool.close();
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** `grk serve --workers 2` over the corpus, logging JSON lines. */
function servePool(): { child: ChildProcessWithoutNullStreams; served: Served } {
  const child = spawn(
    process.execPath,
    [CLI, "serve", "--port", "0", "--index-dir", corpus.indexDir, "--log-format", "json", "--workers", "2"],
    { cwd: corpus.dir, env: { PATH: process.env.PATH ?? "" } },
  );
  return { child, served: new Served(child) };
}

describe("grk serve --workers 2", () => {
  it("serves from both workers, sums their metrics, replaces a killed one and stops on SIGTERM", { timeout: 120_000 }, async () => {
    const { child, served } = servePool();
    try {
      const listening = await served.line((l) => l.msg.startsWith("listening on "));
      expect(listening.workers).toBe(2);
      const url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(listening.msg)![1]!;
      const ready = [await served.line((l) => l.msg === "worker ready")];
      ready.push(await served.line((l) => l.msg === "worker ready" && l.pid !== ready[0]!.pid));
      expect(new Set(ready.map((l) => l.pid)).size).toBe(2);

      // Both answer: connections are dealt to the workers in turn.
      expect(await searches(url, 40)).toEqual(Array(40).fill(200));
      await served.line((l) => l.msg === "request" && l.path === "/v1/search" && l.pid === ready[1]!.pid);
      await served.line((l) => l.msg === "request" && l.path === "/v1/search" && l.pid === ready[0]!.pid);
      expect(served.searchPids()).toEqual(new Set(ready.map((l) => l.pid)));

      // /metrics is answered by one worker but counts the requests of both.
      const scrape = await fetch(`${url}/metrics`);
      expect(scrape.status).toBe(200);
      const families = parsePrometheusTextFormat(await scrape.text());
      const requests = families.find((f) => f.name === "groundkit_http_requests_total")!;
      const searched = requests.metrics.filter((m) => m.labels?.route === "/v1/search" && m.labels?.status === "200");
      expect(searched.map((m) => Number(m.value))).toEqual([40]);

      // A worker killed outright is replaced, on the same port; requests keep succeeding.
      const victim = ready[0]!.pid!;
      const mark = served.lines.length;
      process.kill(victim, "SIGKILL");
      const replaced = await served.line((l) => l.msg === "worker exited; starting a replacement", mark);
      expect(replaced.pid).toBe(victim);
      expect(replaced.signal).toBe("SIGKILL");
      expect(await searches(url, 20)).toEqual(Array(20).fill(200));
      const fresh = await served.line((l) => l.msg === "worker ready", mark);
      expect(fresh.pid).not.toBe(victim);
      expect(fresh.url).toBe(url);
      const after = served.lines.length;
      expect(await searches(url, 40)).toEqual(Array(40).fill(200));
      await served.line((l) => l.msg === "request" && l.path === "/v1/search" && l.pid === fresh.pid, after);

      // A request in flight when SIGTERM arrives completes: its body is still being sent while the workers close.
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const body = JSON.stringify({ query: "citation offsets", top_k: 3 });
      const pending = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = httpRequest(`${url}/v1/search`, {
          method: "POST",
          agent,
          headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
        });
        req.on("response", (res) => {
          let text = "";
          res.on("data", (d: Buffer) => (text += d.toString()));
          res.on("end", () => resolve({ status: res.statusCode!, text }));
        });
        req.on("error", reject);
        req.write(body.slice(0, 10));
        // The rest once every worker has begun to close.
        void Promise.all(
          [fresh.pid, ready[1]!.pid].map((pid) => served.line((l) => l.msg === "shutting down" && l.pid === pid, after)),
        ).then(() => req.end(body.slice(10)));
      });
      // The headers must have reached a worker before it closes (a connection not yet read is idle).
      await new Promise((r) => setTimeout(r, 1000));
      const workerPids = [fresh.pid!, ready[1]!.pid!];
      child.kill("SIGTERM");
      const answered = await pending;
      expect(answered.status).toBe(200);
      expect((JSON.parse(answered.text) as { results: unknown[] }).results.length).toBeGreaterThan(0);
      agent.destroy();
      expect(await served.exited).toBe(0);
      for (const pid of workerPids) expect(alive(pid)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("settles at once every request a worker killed under load held: none is left hanging (issue 25 #12)", { timeout: 120_000 }, async () => {
    const { child, served } = servePool();
    try {
      const listening = await served.line((l) => l.msg.startsWith("listening on "));
      const url = new URL(/listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(listening.msg)![1]!);
      const first = await served.line((l) => l.msg === "worker ready");
      await served.line((l) => l.msg === "worker ready" && l.pid !== first.pid);
      // A new connection per request, from 16 clients at once: connections are being handed to the workers all the time.
      let loading = true;
      let sent = 0;
      let settled = 0;
      const answered = new Map<string, number>();
      const once = (): Promise<void> =>
        new Promise<void>((resolve) => {
          sent++;
          const body = JSON.stringify({ query: "citation offsets", top_k: 3 });
          const req = httpRequest(`${url.origin}/v1/search`, {
            method: "POST",
            agent: false,
            headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body), connection: "close" },
          });
          const done = (outcome: string): void => {
            settled++;
            answered.set(outcome, (answered.get(outcome) ?? 0) + 1);
            resolve();
          };
          req.on("response", (res) => {
            res.resume();
            res.on("end", () => done(String(res.statusCode)));
            res.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? "error"));
          });
          req.on("error", (err: NodeJS.ErrnoException) => done(err.code ?? "error"));
          req.end(body);
        });
      const clients = Array.from({ length: 16 }, async () => {
        while (loading) await once();
      });
      await served.line((l) => l.msg === "request" && l.pid === first.pid);
      const mark = served.lines.length;
      process.kill(first.pid!, "SIGKILL");
      await served.line((l) => l.msg === "worker ready", mark);
      loading = false;
      // Every request sent before the kill has settled (answered, or failed with a reset) by the time requests
      // sent after the replacement started are answered; none waits on a worker that no longer exists.
      expect(await searches(url.origin, 40)).toEqual(Array(40).fill(200));
      const behind = sent - settled;
      expect({ behind, answered: Object.fromEntries(answered) }).toMatchObject({ behind: 0 });
      await Promise.all(clients);
      expect(answered.get("200")).toBeGreaterThan(0);
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });

  it("refuses a worker count out of range", async () => {
    const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--index-dir", corpus.indexDir, "--workers", "0"], {
      cwd: corpus.dir,
      env: { PATH: process.env.PATH ?? "" },
    });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((r) => child.once("exit", r));
    expect(code).toBe(2);
    expect(stderr).toMatch(/--workers must be an integer from 1 to 64/);
  });
});
