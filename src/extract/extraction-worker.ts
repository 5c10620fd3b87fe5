/**
 * The extraction worker: runs the in-thread extractors on the pool's requests.
 * It may be terminated at any moment (deadline, memory), so it keeps nothing
 * but warm extractors: each kind is loaded on its first request and reused.
 */
import { parentPort } from "node:worker_threads";
import { GroundkitError } from "../core/errors.js";
import type { Extractor, ExtractorKind } from "./extractor.js";
import type { WorkerError, WorkerReply, WorkerRequest } from "./extraction-protocol.js";
import { IN_PROCESS_EXTRACTOR_PROBES } from "./in-process-probes.js";

// stdout carries results and JSON-RPC: whatever a parser prints here goes to stderr.
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const extractors = new Map<ExtractorKind, Promise<Extractor>>();

function extractorOf(kind: ExtractorKind): Promise<Extractor> {
  let extractor = extractors.get(kind);
  if (extractor === undefined) {
    extractor = IN_PROCESS_EXTRACTOR_PROBES[kind]();
    extractors.set(kind, extractor);
  }
  return extractor;
}

function flatten(err: unknown): WorkerError {
  if (err instanceof GroundkitError) return { code: err.code, message: err.message, detail: err.detail };
  return { message: err instanceof Error ? err.message : String(err) };
}

async function handle(req: WorkerRequest): Promise<WorkerReply> {
  try {
    const extractor = await extractorOf(req.kind);
    if (req.op === "probe") return { id: req.id, ok: true, identity: extractor.identity };
    const result = await extractor.extract(req.bytes, req.hints, {
      label: req.label,
      limits: { maxOutputCodePoints: req.maxOutputCodePoints },
    });
    return { id: req.id, ok: true, identity: extractor.identity, result };
  } catch (err) {
    return { id: req.id, ok: false, error: flatten(err) };
  }
}

parentPort?.on("message", (req: WorkerRequest) => {
  void handle(req).then((reply) => parentPort?.postMessage(reply));
});
