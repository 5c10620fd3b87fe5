/** `grk status`: counts, schema version, last ingest. */
import { Command } from "commander";
import { openCollection, type CollectionStatus } from "../collection/index.js";
import { describeIdentity } from "../embed/provider.js";
import { displaySource } from "./format.js";
import type { VectorIndexStatus } from "../store/store.js";
import type { ReplicaStatus } from "../store/backend.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";

/** One line: which vector index dense search uses, its size, and whether it is current. */
function describeVectorIndex(v: VectorIndexStatus): string {
  if (v.kind === "exact") return `vector index exact (${v.library ?? "sqlite-vec"}): ${v.reason ?? ""}`;
  // A store that says why its index is not current (PostgreSQL) is quoted as it says it.
  if (v.state !== "current" && v.reason) return `vector index hnsw (${v.library}): ${v.reason}`;
  const missing = v.rerank_vectors === false ? "; its re-rank vectors file is missing (written by the next ingest or `grk doctor --repair`)" : "";
  const size = `${v.indexed_vectors} vectors, ${(v.file_bytes / 1048576).toFixed(1)} MiB`;
  switch (v.state) {
    case "current":
      return `vector index hnsw (${v.library}): ${size}, current${missing}`;
    case "behind":
      return `vector index hnsw (${v.library}): ${size}, ${v.pending_changes} changes pending (applied in memory by searches; folded in by the next ingest)${missing}`;
    case "stale":
      return `vector index hnsw (${v.library}): the saved index does not match the vectors; saved anew by the next ingest (a searching process builds its own meanwhile, off its event loop)`;
    default:
      return `vector index hnsw (${v.library}): not saved yet; saved by the next ingest (a searching process builds its own meanwhile, off its event loop)`;
  }
}

/** One line per read replica: how far behind its primary it is, or why reads do not go to it. */
function describeReplica(r: ReplicaStatus): string {
  const head = `replica ${r.name} (${r.target})`;
  if (!r.ok) return `${head}: not serving reads: ${r.reason ?? "unavailable"}`;
  const bytes = r.replay_lag_bytes === undefined ? "unknown bytes" : `${r.replay_lag_bytes} bytes`;
  const lag = `${head}: behind by ${bytes}, ${(r.replay_lag_seconds ?? 0).toFixed(1)} s`;
  if (r.passed_over) return `${lag}; passed over by reads now: ${r.passed_over}`;
  return r.reason ? `${lag} (${r.reason})` : lag;
}

/** One line: the document history kept and the retention that bounds it. */
function describeHistory(h: CollectionStatus["history"]): string {
  const r = h.retention;
  const bounds = `retention versions=${r.versions},days=${r.max_age_days},bytes=${formatBytes(r.max_bytes)}`;
  if (!r.enabled) return "history off (`grk ingest <path> --history on` starts keeping replaced and removed documents' text)";
  if (h.versions === 0) return `history on, nothing kept yet (${bounds})`;
  const oldest = `oldest version ingested ${h.oldest_ingested_at}, superseded ${h.oldest_superseded_at}`;
  return `history ${h.versions} previous versions of ${h.documents} documents, ${h.blocks} text blocks, ${formatBytes(h.bytes)}; ${oldest} (${bounds})`;
}

/** Bytes as the retention spec writes them (B, KiB, MiB, GiB). */
function formatBytes(n: number): string {
  const units = ["B", "KiB", "MiB", "GiB"];
  let i = 0;
  while (n >= 1024 && i < units.length - 1 && n % 1024 === 0) {
    n /= 1024;
    i++;
  }
  return `${n}${units[i]}`;
}

export function statusCommand(): Command {
  const cmd = new Command("status").description("show a collection's counts, schema version and last ingest");
  withCommonOptions(cmd).action(
    action(async (flags: CommonFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        const s = await col.status({ replicaLag: true });
        if (flags.json) {
          printJson(s);
          return;
        }
        println(`collection ${s.collection} (${s.path})`);
        println(`documents ${s.documents}  chunks ${s.chunks}  schema v${s.schema_version}  generation ${s.generation}`);
        for (const [cls, n] of Object.entries(s.documents_by_class)) println(`  ${cls}: ${n} documents, ${s.chunks_by_class[cls] ?? 0} chunks`);
        println(`last ingest ${s.last_ingest_at ?? "never"}`);
        println(
          s.embedding
            ? `vectors ${s.vectors} (${describeIdentity(s.embedding)})`
            : "vectors none (run `grk ingest <path> --dense` to add them)",
        );
        println(describeVectorIndex(s.vector_index));
        if (s.chunker) println(`chunker size ${s.chunker.chunk_size} overlap ${s.chunker.chunk_overlap}`);
        println(describeHistory(s.history));
        for (const d of s.base_dirs) println(`base dir ${d}`);
        if (s.roots.length === 0) println("roots none (ingest a path or URL to record one; `grk update` re-ingests the roots)");
        for (const r of s.roots) {
          const globs = [...r.include.map((g) => `include ${g}`), ...r.exclude.map((g) => `exclude ${g}`)];
          println(`root ${displaySource(r.source)}${globs.length ? `  (${globs.join(", ")})` : ""}  ingested ${r.ingested_at}`);
        }
        for (const r of s.replicas ?? []) println(describeReplica(r));
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}
