/**
 * Clean-up that must run when the process exits, however it ends (`process.exit`,
 * an uncaught exception, a signal turned into an exit by bench/exit-on-signal.ts),
 * for what outlives the process otherwise: detached PostgreSQL servers, `grk serve`
 * children, scratch folders. One `exit` listener for all of them, so starting many
 * never trips Node's listener-count warning. Exit handlers must be synchronous.
 */
const pending = new Set<() => void>();
let hooked = false;

/** Run `fn` at exit unless the returned function is called first (the thing was cleaned up in time). */
export function atExit(fn: () => void): () => void {
  if (!hooked) {
    hooked = true;
    process.once("exit", () => {
      for (const f of pending) {
        try {
          f();
        } catch {
          // One failed clean-up must not keep the others from running.
        }
      }
    });
  }
  pending.add(fn);
  return () => void pending.delete(fn);
}
