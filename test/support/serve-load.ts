/**
 * Several real `grk serve` processes and a closed-loop HTTP load against them:
 * what the multi-server test (test/postgres-multiserver.test.ts) and
 * `npm run bench -- --store postgres` share. Clients are spread round-robin
 * over the servers; every answer is checked (status 200 plus the caller's
 * check of the body) and counted, never assumed.
 *
 * @example
 *   const servers = await startServes(cli, 3, ["--index-dir", dir], { cwd, env });
 *   const r = await runLoad(servers.map((s) => s.url), { clients: 64, seconds: 5, request: (i) => ({ path: "/v1/search", body: { query: "x" } }) });
 *   await Promise.all(servers.map((s) => s.stop()));
 */
import { spawn, type ChildProcess } from "node:child_process";
import { Pool } from "undici";
import { atExit } from "./at-exit.js";

export interface ServeProcess {
  url: string;
  child: ChildProcess;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<void>;
}

/** Start one `grk serve` (the built CLI at `cli`) on a free port; resolves once it prints its URL. */
export function startServe(cli: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ServeProcess> {
  const child = spawn(process.execPath, [cli, "serve", "--port", "0", ...args], { cwd: opts.cwd, env: opts.env, stdio: ["ignore", "ignore", "pipe"] });
  // A server outlives a caller that exits without stopping it (an interrupted benchmark): not past this process.
  child.once("exit", atExit(() => void child.kill("SIGTERM")));
  return new Promise((resolve, reject) => {
    let stderr = "";
    let started = false;
    child.stderr!.on("data", (d: Buffer) => {
      // Keep only the tail once started: a long load run logs a lot.
      stderr = (stderr + d.toString()).slice(-20_000);
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m && !started) {
        started = true;
        const stop = (): Promise<void> =>
          new Promise((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          });
        resolve({ url: m[1]!, child, stop });
      }
    });
    child.on("exit", (code) => {
      if (!started) reject(new Error(`grk serve exited ${code}: ${stderr}`));
    });
  });
}

/** Start `n` servers with the same arguments (one after another: each opens the store). */
export async function startServes(cli: string, n: number, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv }): Promise<ServeProcess[]> {
  const out: ServeProcess[] = [];
  try {
    for (let i = 0; i < n; i++) out.push(await startServe(cli, args, opts));
  } catch (err) {
    await Promise.all(out.map((s) => s.stop()));
    throw err;
  }
  return out;
}

/** One request of the load: a POST of `body` as JSON to `path`. */
export interface LoadRequest {
  path: string;
  body: unknown;
}

export interface LoadOptions {
  clients: number;
  /** Run this long... */
  seconds?: number | undefined;
  /** ...or until this promise settles (then `seconds` more, if given, is ignored). */
  until?: Promise<unknown> | undefined;
  /** The i-th request of the run. */
  request: (i: number) => LoadRequest;
  /** A problem with a 200 answer's body (e.g. a torn document), or undefined when it is right. */
  check?: ((body: unknown, req: LoadRequest) => string | undefined) | undefined;
}

export interface LoadResult {
  clients: number;
  servers: number;
  seconds: number;
  /** Answers that were 200 and passed the check. */
  ok: number;
  /** Non-200 answers and transport failures. */
  errors: number;
  /** 200 answers the check refused. */
  bad: number;
  requests_per_s: number;
  /** Latency of the good answers, in ms, sorted. */
  latencies_ms: number[];
  /** Up to 10 examples of what went wrong. */
  problems: string[];
}

/** A closed loop: `clients` concurrent clients, each sending its next request when the last one is answered. */
export async function runLoad(urls: string[], opts: LoadOptions): Promise<LoadResult> {
  const perServer = Math.max(1, Math.ceil(opts.clients / urls.length));
  const pools = urls.map((u) => new Pool(u, { connections: perServer, pipelining: 1 }));
  const latencies: number[] = [];
  const problems: string[] = [];
  let errors = 0;
  let bad = 0;
  let next = 0;
  let done = false;
  const note = (p: string): void => {
    if (problems.length < 10) problems.push(p);
  };
  const timer = opts.until === undefined ? setTimeout(() => (done = true), (opts.seconds ?? 1) * 1000) : undefined;
  void opts.until?.then(
    () => (done = true),
    () => (done = true),
  );
  const client = async (c: number): Promise<void> => {
    const pool = pools[c % pools.length]!;
    while (!done) {
      const req = opts.request(next++);
      const t0 = performance.now();
      try {
        const res = await pool.request({ path: req.path, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(req.body) });
        const text = await res.body.text();
        if (res.statusCode !== 200) {
          errors++;
          note(`${res.statusCode} from ${urls[c % urls.length]}: ${text.slice(0, 200)}`);
          continue;
        }
        const problem = opts.check?.(JSON.parse(text), req);
        if (problem) {
          bad++;
          note(problem);
          continue;
        }
        latencies.push(performance.now() - t0);
      } catch (err) {
        errors++;
        note(`${urls[c % urls.length]}: ${(err as Error).message}`);
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.clients }, (_, c) => client(c)));
  const seconds = (performance.now() - started) / 1000;
  clearTimeout(timer);
  await Promise.all(pools.map((p) => p.close()));
  latencies.sort((a, b) => a - b);
  return {
    clients: opts.clients,
    servers: urls.length,
    seconds: Number(seconds.toFixed(2)),
    ok: latencies.length,
    errors,
    bad,
    requests_per_s: Number((latencies.length / seconds).toFixed(1)),
    latencies_ms: latencies,
    problems,
  };
}

/** The p-th percentile of sorted samples (0 when there are none). */
export function percentileOf(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}
