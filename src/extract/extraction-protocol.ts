/**
 * The messages between the extraction pool (main thread) and its worker.
 * One request is in flight at a time; a reply carries the request's id.
 */
import type { ExtractHints, ExtractedText, ExtractorKind } from "./extractor.js";

/** Load (or check) one kind's extractor; the reply carries its identity. */
export interface ProbeRequest {
  id: number;
  op: "probe";
  kind: ExtractorKind;
}

/** Extract one file; `bytes` is a copy transferred to the worker. */
export interface ExtractRequest {
  id: number;
  op: "extract";
  kind: ExtractorKind;
  bytes: Uint8Array;
  hints: ExtractHints | undefined;
  label: string | undefined;
  maxOutputCodePoints: number;
}

export type WorkerRequest = ProbeRequest | ExtractRequest;

/** A thrown value, flattened for the trip back: GroundkitErrors keep their code and detail. */
export interface WorkerError {
  code?: string | undefined;
  message: string;
  detail?: Record<string, unknown> | undefined;
}

export type WorkerReply =
  | { id: number; ok: true; identity: string; result?: ExtractedText | undefined }
  | { id: number; ok: false; error: WorkerError };
