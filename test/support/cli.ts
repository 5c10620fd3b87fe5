/**
 * Run the real built CLI (dist/cli/main.js) as a child process.
 */
import { spawn, spawnSync } from "node:child_process";
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

/** Run `grk args...` asynchronously (for tests that need concurrency). */
export function grkAsync(args: string[], opts: { cwd: string }): Promise<CliResult> {
  return new Promise((resolvePromise) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd: opts.cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolvePromise({ code: code ?? -1, stdout, stderr }));
  });
}

/** A fresh temporary directory, removed by the returned cleanup. */
export function tempDir(prefix = "grk-"): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
