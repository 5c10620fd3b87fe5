/**
 * Clean-up that must run when the process ends, however it ends (`process.exit`,
 * an uncaught exception, SIGTERM, SIGINT or SIGHUP), for what outlives the process
 * otherwise: detached PostgreSQL servers, `grk serve` children, scratch folders.
 * A signal would end a test worker without its `exit` listeners (Node's default),
 * so on one the clean-ups run and the signal is raised again, with the default
 * action: the process still ends by that signal. One listener of each kind for
 * all of them, so starting many never trips Node's listener-count warning.
 * Clean-ups must be synchronous.
 */
const pending = new Set<() => void>();
let hooked = false;

const SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

function runPending(): void {
  for (const f of pending) {
    try {
      f();
    } catch {
      // One failed clean-up must not keep the others from running.
    }
  }
  pending.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  runPending();
  for (const s of SIGNALS) process.removeListener(s, onSignal);
  // With no listener left (unless the process set its own), the signal does what it would have done.
  process.kill(process.pid, signal);
}

/** Run `fn` at exit unless the returned function is called first (the thing was cleaned up in time). */
export function atExit(fn: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once("exit", runPending);
    for (const s of SIGNALS) process.on(s, onSignal);
  }
  pending.add(fn);
  return () => void pending.delete(fn);
}
