/** What a collection reports about itself: its status, and `grk doctor`'s health checks and repairs. */
import { GroundkitError } from "../core/errors.js";
import { recordedIdentity } from "../embed/binding.js";
import { parseRecordedChunking } from "../ingest/chunking-settings.js";
import { recordedRoots } from "../ingest/roots.js";
import { getChunk } from "./chunks.js";
import { recordedRetention } from "./history.js";
import type { CollectionCore } from "./core.js";
// The health checks load on first use: `grk search` never pays for them (issue 29).
import type { DoctorCheck, HealthParts, RepairAction, SampleOutcome } from "./health.js";
import { baseDirs } from "./sources.js";
import type { CollectionStatus, LockWaitOptions } from "./types.js";
import { backfillVectors } from "./vectors.js";

/**
 * Counts, schema version, embedding identity, last ingest, history kept, read from one
 * snapshot (of a read replica when the store has one); with `replicaLag`,
 * how far behind its primary each read replica is (bounded waits).
 */
export async function status(core: CollectionCore, opts: { replicaLag?: boolean } = {}): Promise<CollectionStatus> {
  const [counts, replicas] = await Promise.all([
    core.store.readSnapshot(async (s): Promise<CollectionStatus> => {
      const chunker = await s.getMeta("chunker");
      return {
        collection: core.name,
        path: core.path,
        ...(await s.stats()),
        vectors: await s.countVectors(),
        vector_index: await s.vectorIndexStatus(),
        embedding: (await recordedIdentity(s)) ?? null,
        base_dirs: await baseDirs(core, s),
        roots: await recordedRoots(s),
        chunker: parseRecordedChunking(chunker),
        history: { ...(await s.historyTotals()), retention: await recordedRetention(s) },
      };
    }),
    opts.replicaLag ? core.replicas() : [],
  ]);
  return replicas.length > 0 ? { ...counts, replicas } : counts;
}

/**
 * `grk doctor`'s checks of this collection's rows, derived structures,
 * vectors, embedding and extractor identities, snapshots, and a
 * re-verification of up to `sample` random citations per source class.
 * Reads only (open the collection `readonly` to be sure of it).
 */
export async function checkHealth(core: CollectionCore, opts: { sample: number }): Promise<{ checks: DoctorCheck[]; sample: Record<string, SampleOutcome> }> {
  const { runHealthChecks } = await import("./health.js");
  return runHealthChecks(await healthParts(core), opts);
}

/** The repairs that lose nothing (health.ts), holding the writer lock; says what it did. */
export function repair(core: CollectionCore, lock: LockWaitOptions): Promise<RepairAction[]> {
  return core.writing("repair", lock, async () => {
    const { repairCollection } = await import("./health.js");
    return repairCollection(await healthParts(core), (provider) => backfillVectors(core, provider));
  });
}

async function healthParts(core: CollectionCore): Promise<HealthParts> {
  const health = core.store.health();
  if (health === undefined) {
    throw new GroundkitError("STORE_UNSUPPORTED", `grk doctor cannot check '${core.name}': its store offers no row checks.`);
  }
  return {
    name: core.name,
    store: core.store,
    health,
    snapshots: core.snapshots,
    embedding: core.options.embedding,
    baseDirs: await baseDirs(core),
    verifyChunk: async (chunkId) => (await getChunk(core, chunkId, {})).verification,
  };
}
