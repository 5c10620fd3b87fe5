/** Ingesting into a collection and updating it from its recorded roots, under its writer lock. */
import { resolve } from "node:path";
import { DEFAULTS } from "../core/config.js";
import { embedChunks } from "../embed/chunk-vectors.js";
import { decideChunking, parseRecordedChunking, recordChunking } from "../ingest/chunking-settings.js";
// The ingest modules load on first use: `grk search` never pays for them (issue 29).
import type { IngestOptions, IngestSummary } from "../ingest/ingest.js";
import { INGEST_SPANS, recordIngestSummary } from "../ingest/ingest-tracing.js";
import { recordedRoots, recordRoots } from "../ingest/roots.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import type { CollectionCore } from "./core.js";
import { ingestEmbeds } from "./dense-ingest.js";
import type { DenseIngestOptions, LockWaitOptions } from "./types.js";
import { backfillVectors, bindEmbedding } from "./vectors.js";
import { applyRetention } from "./history.js";

/**
 * Ingest files, folders and URLs; returns the run's summary. With `dense`, or
 * into a collection that is already dense (dense-ingest.ts), chunks are
 * embedded and their vectors committed with them, and chunks that still lack a
 * vector (an earlier BM25-only ingest) are backfilled.
 */
export async function ingest(
  core: CollectionCore,
  inputs: string[],
  opts: Partial<IngestOptions> & DenseIngestOptions & LockWaitOptions,
): Promise<IngestSummary> {
  const attributes = { [ATTR.collection]: core.name, "groundkit.ingest.dense": opts.dense ?? false, "groundkit.ingest.inputs": inputs.length };
  return withSpan(INGEST_SPANS.run, attributes, (span) =>
    core.writing("ingest", opts, async () => {
      const summary = await ingestLocked(core, inputs, opts);
      recordIngestSummary(span, summary);
      return summary;
    }),
  );
}

/**
 * Ingest every recorded root again, each with the include/exclude and base
 * dir it was recorded with, under one hold of the writer lock. A dense
 * collection stays dense (dense-ingest.ts).
 */
export async function update(
  core: CollectionCore,
  opts: Pick<IngestOptions, "allowPrivateNetwork" | "fetchTimeoutMs" | "onProgress"> &
    Partial<Pick<IngestOptions, "maxFileSize">> &
    DenseIngestOptions &
    LockWaitOptions,
): Promise<IngestSummary & { roots: number }> {
  return core.writing("update", opts, async () => {
    const roots = await recordedRoots(core.store);
    const summaries: IngestSummary[] = [];
    // Roots recorded with the same options are ingested in one run, so a file moved between them is a move.
    const groups = new Map<string, typeof roots>();
    for (const root of roots) {
      const key = JSON.stringify([root.base_dir, root.include, root.exclude]);
      groups.set(key, [...(groups.get(key) ?? []), root]);
    }
    for (const [, group] of groups) {
      const { base_dir, include, exclude } = group[0]!;
      summaries.push(
        await ingestLocked(
          core,
          group.map((r) => r.source),
          { ...opts, baseDir: base_dir ?? undefined, include, exclude },
        ),
      );
    }
    const { mergeSummaries } = await import("../ingest/ingest.js");
    return { ...mergeSummaries(summaries), roots: roots.length };
  });
}

/** Ingest under the writer lock (the caller holds it); records the inputs reached as roots. */
async function ingestLocked(
  core: CollectionCore,
  inputs: string[],
  opts: Partial<IngestOptions> & DenseIngestOptions,
): Promise<IngestSummary> {
  // Decided under the lock: the recorded chunking is what the previous writer left.
  const chunking = decideChunking(
    parseRecordedChunking(await core.store.getMeta("chunker")),
    { chunkSize: opts.chunkSize, chunkOverlap: opts.chunkOverlap },
    core.options.chunking,
  );
  const { chunk_size: chunkSize, chunk_overlap: chunkOverlap } = chunking;
  const retention = await applyRetention(core.store, opts.history);
  // Decided under the lock too: whether the collection is dense is what the previous writer left.
  const provider = (await ingestEmbeds(core.store, opts.dense)) ? await bindEmbedding(core, true) : undefined;
  let embedded = 0;
  const embed = provider
    ? async (texts: string[]) => {
        const vectors = await embedChunks(provider, texts, (done) => opts.onChunksEmbedded?.(embedded + done));
        embedded += texts.length;
        opts.onChunksEmbedded?.(embedded);
        return vectors;
      }
    : undefined;
  const [{ Ingestor }, { Dispatcher }] = await Promise.all([import("../ingest/ingest.js"), import("../ingest/dispatch.js")]);
  const ingestor = new Ingestor(
    core.store,
    {
      ...opts,
      chunkSize,
      chunkOverlap,
      maxFileSize: opts.maxFileSize ?? DEFAULTS.maxFileSize,
      embed,
    },
    new Dispatcher(undefined, core.options.extraction),
    core.snapshots,
  );
  const summary = await ingestor.run(inputs);
  // Converge after any crash: temp files and snapshots without a document go.
  await core.snapshots.sweep(async (id) => (await core.store.getDocument(id))?.source_class === "snapshot");
  await core.store.setMeta("chunker", recordChunking(chunking));
  const at = new Date().toISOString();
  await recordRoots(
    core.store,
    ingestor.reached.map((r) => ({
      ...r,
      base_dir: r.kind === "path" && opts.baseDir ? resolve(opts.baseDir) : null,
      include: [...(opts.include ?? [])],
      exclude: [...(opts.exclude ?? [])],
      ingested_at: at,
    })),
  );
  summary.chunking = chunking;
  if (provider) summary.vectors_written += await backfillVectors(core, provider, opts.onEmbedProgress);
  // Retention is enforced at ingest, so history stays within its bounds without a job of its own.
  if (retention.enabled) await core.store.pruneHistory(retention, new Date());
  // Under the writer lock: fold this run's vector changes into the saved ANN index (a no-op when current).
  await core.store.syncVectorIndex(opts.onIndexProgress);
  return summary;
}
