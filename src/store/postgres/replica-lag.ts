/**
 * How far behind its primary a streaming replica is, for `grk status` and
 * `/readyz`: the WAL bytes the primary has written that the replica has not
 * replayed yet (`pg_wal_lsn_diff` of the primary's current LSN and the
 * replica's last replayed one), and the age of the last transaction it
 * replayed while it still has WAL to replay (0 once it has replayed all it
 * received: an idle primary does not make a replica "late").
 */
import type { ReplicaStatus } from "../backend.js";
import { rowsOf, type Queryable } from "./queryable.js";
import type { ReadTarget } from "./read-pools.js";

/** One replica's state; `ok` false says why it cannot serve. */
export type ReplicaLag = Omit<ReplicaStatus, "passed_over">;

/** Measure every replica's lag against the primary, each bounded by `waitMs`; never throws. */
export async function replicaLags(primary: Queryable, replicas: readonly ReadTarget[], waitMs = 2_000): Promise<ReplicaLag[]> {
  return Promise.all(replicas.map((r) => bounded(replicaLag(primary, r), waitMs, r)));
}

async function replicaLag(primary: Queryable, replica: ReadTarget): Promise<ReplicaLag> {
  const base = { name: replica.name, target: replica.target };
  let state: { standby: boolean; replayed: string | null; seconds: number | null } | undefined;
  try {
    [state] = await rowsOf<{ standby: boolean; replayed: string | null; seconds: number | null }>(
      replica.q,
      `SELECT pg_is_in_recovery() AS standby, pg_last_wal_replay_lsn()::text AS replayed,
         CASE WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
           ELSE extract(epoch FROM now() - pg_last_xact_replay_timestamp()) END::float8 AS seconds`,
    );
  } catch (err) {
    return { ...base, ok: false, reason: `the replica does not answer: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (!state!.standby || state!.replayed === null) {
    // A promoted or unrelated server would serve a history of its own.
    return { ...base, ok: false, reason: "the server is not a streaming standby (pg_is_in_recovery() is false): reads stay on the primary" };
  }
  try {
    const [lag] = await rowsOf<{ bytes: number }>(
      primary,
      "SELECT greatest(pg_wal_lsn_diff(pg_current_wal_lsn(), $1::pg_lsn), 0)::float8 AS bytes",
      [state!.replayed],
    );
    return { ...base, ok: true, replay_lag_bytes: lag!.bytes, replay_lag_seconds: Math.max(0, state!.seconds ?? 0) };
  } catch (err) {
    return { ...base, ok: true, replay_lag_seconds: Math.max(0, state!.seconds ?? 0), reason: `the primary does not answer: ${err instanceof Error ? err.message : String(err)}` };
  }
}

function bounded(p: Promise<ReplicaLag>, waitMs: number, r: ReadTarget): Promise<ReplicaLag> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReplicaLag>((resolve) => {
    timer = setTimeout(() => resolve({ name: r.name, target: r.target, ok: false, reason: `no answer within ${waitMs} ms` }), waitMs);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}
