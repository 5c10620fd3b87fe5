/**
 * Run the real built CLI (dist/cli/main.js) as a child process.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const CLI = resolve(import.meta.dirname, "../../dist/cli/main.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `grk args...` synchronously in `cwd`. */
export function grk(args: string[], opts: { cwd: string; input?: string; env?: Record<string, string> }): CliResult {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    input: opts.input,
    encoding: "utf8",
    env: { ...process.env, ...opts.env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: res.status ?? -1, stdout: res.stdout, stderr: res.stderr };
}

/**
 * Run `grk args...` asynchronously (for tests that need concurrency). With
 * `killAfterMs`, a child still running then is killed and `hung` is true: a
 * hang check that works even when the child blocks its own event loop.
 */
export function grkAsync(
  args: string[],
  opts: { cwd: string; killAfterMs?: number },
): Promise<CliResult & { hung: boolean }> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill("SIGKILL"), opts.killAfterMs);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolvePromise({ code: code ?? -1, stdout, stderr, hung: timer !== undefined && signal === "SIGKILL" });
    });
  });
}

/**
 * Start `grk serve args...` (with only PATH and `env` in its environment) and
 * resolve once it prints its URL (rejects if it exits first). The caller kills the child.
 */
export function grkServe(
  args: string[],
  opts: { cwd: string; env?: Record<string, string> },
): Promise<{ url: string; child: ChildProcessWithoutNullStreams }> {
  const child = spawn(process.execPath, [CLI, "serve", ...args], { cwd: opts.cwd, env: { PATH: process.env.PATH ?? "", ...opts.env } });
  return new Promise((resolvePromise, reject) => {
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (m) resolvePromise({ url: m[1]!, child });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = "grk-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
