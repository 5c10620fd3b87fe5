/**
 * What every backend's writer lock shares: who holds it (recorded beside the
 * lock for waiting messages only) and the options a writer waits with.
 */
import { hostname } from "node:os";

/** Who holds (or last held) a collection's writer lock, as its holder recorded it. */
export interface LockHolder {
  pid: number;
  hostname: string;
  operation: string;
  /** When the holding process started (ISO 8601). */
  process_started_at: string;
  acquired_at: string;
  /** Distinguishes this acquisition from a later one by the same process. */
  token: string;
}

export interface WriterLockOptions {
  collection: string;
  /** What the holder is doing ("ingest", "reembed", "delete"), shown to waiters. */
  operation: string;
  /** How long to wait for another writer before failing with COLLECTION_BUSY; 0 tries once. */
  timeoutMs: number;
  /** Called once, when the lock is held by another writer and this one starts to wait. */
  onWait?: ((holder: LockHolder | undefined) => void) | undefined;
}

/** "pid 123 on host, since …" for waiting and busy messages. */
export function describeHolder(holder: LockHolder | undefined): string {
  if (!holder) return "holder unknown";
  const host = holder.hostname === hostname() ? "" : ` on ${holder.hostname}`;
  return `pid ${holder.pid}${host}, since ${holder.acquired_at}`;
}

/** The line a waiting CLI prints: `waiting for another ingest of collection 'x' (pid 123)…`. */
export function describeWait(collection: string, holder: LockHolder | undefined): string {
  return `waiting for another ${holder?.operation ?? "writer"} of collection '${collection}' (${describeHolder(holder)})…`;
}
