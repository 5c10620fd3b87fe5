/**
 * A synchronous better-sqlite3 call as a settled Promise: its value resolves,
 * its throw rejects. The async Store contract over a synchronous engine.
 */
export function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err as Error);
  }
}
