/**
 * The attributes ingest spans carry: what a run did, in counts (never a path,
 * a URL or a document's text).
 */
import type { Span } from "@opentelemetry/api";

/** The counts of an ingest summary a span carries (structural: ingest.ts imports this file). */
interface IngestCounts {
  files_seen: number;
  indexed: number;
  unchanged: number;
  removed: number;
  moved: number;
  failed: readonly unknown[];
  unsupported: readonly unknown[];
  chunks_written: number;
  vectors_written: number;
}

/** Span names of the ingest stages, once. */
export const INGEST_SPANS = {
  run: "groundkit.ingest",
  discover: "groundkit.ingest.discover",
  read: "groundkit.ingest.read",
  extract: "groundkit.ingest.extract",
  chunk: "groundkit.ingest.chunk",
  embed: "groundkit.ingest.embed",
  commit: "groundkit.ingest.commit",
} as const;

/** Put a run's counts on its span. */
export function recordIngestSummary(span: Span, summary: IngestCounts): void {
  if (!span.isRecording()) return;
  span.setAttributes({
    "groundkit.ingest.files_seen": summary.files_seen,
    "groundkit.ingest.indexed": summary.indexed,
    "groundkit.ingest.unchanged": summary.unchanged,
    "groundkit.ingest.removed": summary.removed,
    "groundkit.ingest.moved": summary.moved,
    "groundkit.ingest.failed": summary.failed.length,
    "groundkit.ingest.unsupported": summary.unsupported.length,
    "groundkit.ingest.chunks_written": summary.chunks_written,
    "groundkit.ingest.vectors_written": summary.vectors_written,
  });
}
