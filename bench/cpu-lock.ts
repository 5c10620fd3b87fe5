/**
 * The shared machine's CPU lock (a flock reader/writer lock on a file, see
 * /work/wt/COMMON.md's protocol): heavy but untimed phases run under the
 * shared lock, timed phases under the exclusive one. flock(1) holds it in a
 * child process until this process lets go, so one bench run can do its
 * ingest shared and only its measurements exclusive.
 */
import { spawn, type ChildProcess } from "node:child_process";

/** A held lock; release() lets it go. */
export interface HeldLock {
  mode: "shared" | "exclusive";
  release(): Promise<void>;
}

/** Wait for the lock on `file` in `mode` and hold it until release(). */
export function acquireCpuLock(file: string, mode: "shared" | "exclusive"): Promise<HeldLock> {
  const child: ChildProcess = spawn("flock", [mode === "shared" ? "-s" : "-x", file, "-c", "echo held; read _"], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.stdout!.once("data", () =>
      resolve({
        mode,
        release: () =>
          new Promise((done) => {
            child.once("exit", () => done());
            child.stdin!.end("\n");
          }),
      }),
    );
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`flock ${file} exited ${code} before taking the lock`)));
  });
}

/** Run `fn` under the lock when a lock file is given (else just run it). */
export async function underCpuLock<T>(file: string | undefined, mode: "shared" | "exclusive", fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const lock = await acquireCpuLock(file, mode);
  try {
    return await fn();
  } finally {
    await lock.release();
  }
}
