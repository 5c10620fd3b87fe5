/**
 * Re-extraction results kept by what was extracted, so checking the same file
 * again (the next hit, the next search, the next client) costs no second
 * extraction (docs/decisions/0024-extraction-cache-and-scheduling.md).
 *
 * The key is the SHA-256 of the exact bytes read (after containment), the
 * extractor's identity and the hints. An extractor is deterministic (same
 * bytes, same identity, same hints: same text; extractor.ts), so a hit is the
 * text a fresh extraction would give, whatever happened to the file: a swap of
 * same size and same mtime has other bytes, hence another key. The file's
 * device, inode, size and mtime are deliberately not part of the key nor a
 * shortcut around hashing: they can stay the same while the bytes change
 * (`touch -d`, a rewrite within one timestamp tick, coarse-timestamp file
 * systems), and verification promises the source's current content. The bytes
 * are always read and hashed (milliseconds); only the extraction is saved.
 *
 * Concurrent requests for one key share one extraction. It is cancelled only
 * when every caller waiting for it has gone; each caller is released at once
 * when its own signal aborts. Failures are never kept. Entries are evicted
 * least recently used beyond a memory budget.
 */
import { codePointLength, sha256 } from "../core/text.js";
import { ATTR, withSpan } from "../obs/tracing.js";
import type { ExtractHints, ExtractOptions, ExtractedText, Extractor } from "./extractor.js";
import { cancelled, type JobOwner } from "./job-owner.js";
import { checkOutputLength, resolveExtractionLimits } from "./limits.js";

/** Memory for cached texts by default: 64 MiB (UTF-16 text plus its page and line maps). */
export const DEFAULT_EXTRACTION_CACHE_BYTES = 64 * 1024 * 1024;

/** What the cache did, since it was created. */
export interface ExtractionCacheStats {
  /** Answered from a kept result. */
  hits: number;
  /** Joined an extraction already running for the same key. */
  shared: number;
  /** Started an extraction. */
  misses: number;
  entries: number;
  bytes: number;
}

/** One extraction in progress and how many callers still wait for it. */
interface Pending {
  promise: Promise<ExtractedText>;
  controller: AbortController;
  waiters: number;
}

/** Approximate memory of a result: UTF-16 text, 8 bytes per number of its maps. */
function sizeOf(result: ExtractedText): number {
  const numbers =
    (result.pageStarts?.length ?? 0) +
    (result.sourceLines ? result.sourceLines.starts.length + result.sourceLines.lines.length : 0) +
    2 * (result.codeBlocks?.length ?? 0);
  // An office location is a small object (a slide number, a cell, a heading path): ~64 bytes each.
  const locations = result.locations ? result.locations.starts.length * (8 + 64) : 0;
  return result.text.length * 2 + numbers * 8 + locations + (result.title?.length ?? 0) * 2;
}

/** The cache key: what was extracted, by whom, with which hints. */
export function extractionKey(identity: string, bytes: Uint8Array, hints: ExtractHints | undefined): string {
  return `${identity}\0${hints?.charset ?? ""}\0${sha256(bytes)}`;
}

export class ExtractionCache {
  private readonly kept = new Map<string, { result: ExtractedText; size: number }>();
  private readonly pending = new Map<string, Pending>();
  private bytes = 0;
  private counts = { hits: 0, shared: 0, misses: 0 };

  constructor(private readonly maxBytes: number = DEFAULT_EXTRACTION_CACHE_BYTES) {}

  stats(): ExtractionCacheStats {
    return { ...this.counts, entries: this.kept.size, bytes: this.bytes };
  }

  /**
   * `extractor`'s text of `bytes`: kept, shared with a running extraction, or
   * extracted now on behalf of `options.owner`.
   *
   * @throws as {@link Extractor.extract}; REQUEST_CANCELLED once the owner's signal aborts.
   */
  extract(extractor: Extractor, bytes: Uint8Array, hints: ExtractHints | undefined, options: ExtractOptions = {}): Promise<ExtractedText> {
    const key = extractionKey(extractor.identity, bytes, hints);
    const outcome = this.kept.has(key) ? "cache" : this.pending.has(key) ? "shared" : "run";
    const attributes = { [ATTR.extractorKind]: extractor.kind, [ATTR.extractionOutcome]: outcome };
    return withSpan("groundkit.extraction", attributes, () => this.answer(key, extractor, bytes, hints, options));
  }

  private answer(key: string, extractor: Extractor, bytes: Uint8Array, hints: ExtractHints | undefined, options: ExtractOptions): Promise<ExtractedText> {
    const label = options.label;
    const kept = this.kept.get(key);
    if (kept !== undefined) {
      this.counts.hits++;
      // Most recently used last.
      this.kept.delete(key);
      this.kept.set(key, kept);
      // A limit decides whether a text is produced, never which: only the output cap can refuse a kept text.
      try {
        const max = resolveExtractionLimits(options.limits).maxOutputCodePoints;
        // UTF-16 units bound code points from above: count them only when that bound is over the cap.
        if (kept.result.text.length > max) checkOutputLength(codePointLength(kept.result.text), max, label);
      } catch (err) {
        return Promise.reject(err);
      }
      return Promise.resolve(kept.result);
    }
    let pending = this.pending.get(key);
    if (pending === undefined) {
      this.counts.misses++;
      pending = this.start(key, extractor, bytes, hints, options);
    } else {
      this.counts.shared++;
    }
    return this.wait(key, pending, options.owner, label);
  }

  private start(key: string, extractor: Extractor, bytes: Uint8Array, hints: ExtractHints | undefined, options: ExtractOptions): Pending {
    const controller = new AbortController();
    // The shared job belongs to the client that started it; it is cancelled when all its callers are gone.
    const owner: JobOwner = { client: options.owner?.client ?? "local", signal: controller.signal };
    const promise = extractor.extract(bytes, hints, { ...options, owner });
    const pending: Pending = { promise, controller, waiters: 0 };
    this.pending.set(key, pending);
    const forget = (): void => {
      if (this.pending.get(key) === pending) this.pending.delete(key);
    };
    promise.then(
      (result) => {
        forget();
        this.keep(key, result);
      },
      forget,
    );
    return pending;
  }

  /** `pending`'s result for one caller, who may leave early. */
  private wait(key: string, pending: Pending, owner: JobOwner | undefined, label: string | undefined): Promise<ExtractedText> {
    pending.waiters++;
    return new Promise<ExtractedText>((resolve, reject) => {
      let settled = false;
      const leave = (): boolean => {
        if (settled) return false;
        settled = true;
        owner?.signal?.removeEventListener("abort", onAbort);
        pending.waiters--;
        return true;
      };
      const onAbort = (): void => {
        if (!leave()) return;
        if (pending.waiters === 0) {
          if (this.pending.get(key) === pending) this.pending.delete(key);
          pending.controller.abort();
        }
        reject(cancelled(label));
      };
      if (owner?.signal?.aborted) {
        onAbort();
        return;
      }
      owner?.signal?.addEventListener("abort", onAbort, { once: true });
      pending.promise.then(
        (result) => leave() && resolve(result),
        (err: unknown) => leave() && reject(err),
      );
    });
  }

  private keep(key: string, result: ExtractedText): void {
    const size = sizeOf(result);
    if (size > this.maxBytes) return;
    const before = this.kept.get(key);
    if (before !== undefined) this.bytes -= before.size;
    this.kept.set(key, { result, size });
    this.bytes += size;
    for (const [oldest, entry] of this.kept) {
      if (this.bytes <= this.maxBytes) break;
      this.kept.delete(oldest);
      this.bytes -= entry.size;
    }
  }
}

let shared: ExtractionCache | undefined;

/** The process's extraction cache (a server's verifications share it across requests and clients). */
export function getExtractionCache(): ExtractionCache {
  shared ??= new ExtractionCache();
  return shared;
}
