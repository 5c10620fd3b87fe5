/**
 * The benchmark's tasks by name, and how to run one: in this process, or in a
 * fresh child process (`child.ts`) so its memory and start-up belong to it alone.
 * Modules load lazily so a child pays only for the task it runs (which matters
 * for the open-and-first-query timing).
 */
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** Every task: name → (JSON arguments) → JSON result. */
export const TASKS = {
  ingest: async (a: unknown) => (await import("./ours.js")).ingestTask(a as never),
  query: async (a: unknown) => (await import("./ours.js")).queryTask(a as never),
  open: async (a: unknown) => (await import("./open.js")).openTask(a as never),
  peer: async (a: unknown) => (await import("./peer.js")).peerTask(a as never),
  vectors: async (a: unknown) => (await import("./vectors.js")).vectorsTask(a as never),
  verify: async (a: unknown) => (await import("./verify.js")).verifyTask(a as never),
  embedding: async (a: unknown) => (await import("./dense.js")).embeddingTask(a as never),
  probe: async (a: unknown) => (await import("./dense.js")).probeTask(a as never),
} as const;

/** A task name. */
export type TaskName = keyof typeof TASKS;

/** How tasks run. */
export interface TaskRunner {
  /** "child" (a fresh node process per task) or "in-process". */
  readonly kind: "child" | "in-process";
  run<T>(task: TaskName, args: unknown, opts?: { nodeArgs?: string[] }): Promise<T & { wall_ms: number }>;
}

/** Runs tasks in this process (used by the smoke test, where no compiled child exists). */
export const inProcessRunner: TaskRunner = {
  kind: "in-process",
  async run<T>(task: TaskName, args: unknown) {
    const t0 = performance.now();
    const res = (await TASKS[task](args)) as T;
    return { ...res, wall_ms: Number((performance.now() - t0).toFixed(1)) };
  },
};

/** The compiled child entry point next to this file, when it exists. */
export function childScript(): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url));
  const js = join(here, "child.js");
  return import.meta.url.endsWith(".js") && existsSync(js) ? js : undefined;
}

/**
 * Runs each task in a fresh `node` process; `wall_ms` is spawn → exit.
 * The child's stderr passes through (progress and errors stay visible).
 */
export function childRunner(script: string): TaskRunner {
  return {
    kind: "child",
    async run<T>(task: TaskName, args: unknown, opts: { nodeArgs?: string[] } = {}) {
      const dir = mkdtempSync(join(tmpdir(), "grk-bench-task-"));
      try {
        const argsFile = join(dir, "args.json");
        const outFile = join(dir, "result.json");
        writeFileSync(argsFile, JSON.stringify(args));
        const t0 = performance.now();
        const code = await new Promise<number | null>((resolve, reject) => {
          const child = spawn(process.execPath, [...(opts.nodeArgs ?? []), script, task, argsFile, outFile], {
            stdio: ["ignore", "inherit", "inherit"],
          });
          child.on("error", reject);
          child.on("exit", (c, signal) => resolve(signal ? 128 : c));
        });
        const wall = performance.now() - t0;
        if (code !== 0 || !existsSync(outFile)) throw new Error(`bench task '${task}' exited with code ${code}`);
        const parsed = JSON.parse(readFileSync(outFile, "utf8")) as { ok: true; result: T } | { ok: false; error: string };
        if (!parsed.ok) throw new Error(`bench task '${task}' failed: ${parsed.error}`);
        return { ...parsed.result, wall_ms: Number(wall.toFixed(1)) };
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
