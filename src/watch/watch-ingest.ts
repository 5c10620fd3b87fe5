/**
 * Keeping a collection current with folders: their changes are watched
 * (tree-watcher.ts), coalesced into batches (change-batcher.ts), and every
 * batch re-runs the same incremental ingest `grk ingest` runs over the
 * folders it touches: a changed file is replaced, a new one added, a deleted
 * one pruned, each in its own atomic replacement, so a search during a batch
 * sees every document either as it was or as it is now. One log line per
 * document change, one per batch (the first is logged as the initial scan).
 *
 * @example
 *   const watch = await watchAndIngest({ folders: ["./docs"], ingest: (paths, onChange) => col.ingest(paths, { onChange }), log });
 *   process.once("SIGINT", () => void watch.close());
 */
import { sep } from "node:path";
import { toGroundkitError } from "../core/errors.js";
import { Dispatcher } from "../ingest/dispatch.js";
import type { DocumentChange, IngestSummary } from "../ingest/ingest.js";
import type { Logger } from "../obs/logger.js";
import { ChangeBatcher, type ChangeBatcherOptions } from "./change-batcher.js";
import { TreeWatcher } from "./tree-watcher.js";

export interface WatchIngestOptions extends ChangeBatcherOptions {
  /** Absolute folders to keep indexed (a missing one is waited for). */
  folders: string[];
  /** Run the incremental ingest of these folders, reporting each document change. */
  ingest: (folders: string[], onChange: (change: DocumentChange) => void) => Promise<IngestSummary>;
  log: Logger;
  /** Called after every batch (tests, progress). */
  onBatch?: ((batch: WatchBatch) => void) | undefined;
}

/** What one batch did. */
export interface WatchBatch {
  /** Changed paths the batch coalesced (a watched folder read whole is counted in `scanned`, not here). */
  changes: number;
  /** Watched folders the batch read whole: at start, and when a folder that was gone is back. */
  scanned: number;
  folders: string[];
  summary: IngestSummary | undefined;
  /** Set when the ingest itself failed (the batch is retried). */
  error?: string | undefined;
}

export interface WatchHandle {
  /** Stop watching, then wait for a running batch to finish. */
  close(): Promise<void>;
  /** Folders currently watched, over all roots. */
  folderCount(): number;
}

/** Start watching; the first batch brings every folder current with what is on disk now. */
export async function watchAndIngest(opts: WatchIngestOptions): Promise<WatchHandle> {
  const { log } = opts;
  const extensions = new Dispatcher().supportedExtensions();
  const relevant = (path: string) => {
    const lower = path.toLowerCase();
    return lower.endsWith(`${sep}.gitignore`) || extensions.some((ext) => lower.endsWith(ext));
  };
  const present = new Map<string, boolean>(opts.folders.map((f) => [f, true]));
  const rootsOf = (paths: string[]) =>
    opts.folders.filter((root) => paths.some((p) => p === root || p.startsWith(root + sep)) && present.get(root) !== false);

  let failures = 0;
  let retry: NodeJS.Timeout | undefined;
  const toRetry = new Set<string>();
  // Until the first batch succeeds, reading a watched folder whole is the initial scan.
  let initialScanDone = false;
  /** What a batch was, for its log line: the initial scan (or a re-scan) of folders, and changed paths. */
  const describeBatch = (scanned: number, changes: number): string =>
    [
      scanned > 0 ? `${initialScanDone ? "re-scan" : "initial scan"} of ${scanned} folder(s)` : "",
      changes > 0 || scanned === 0 ? `batch of ${changes} change(s)` : "",
    ]
      .filter(Boolean)
      .join(" and ");
  const runBatch = async (paths: string[]): Promise<void> => {
    const folders = rootsOf(paths);
    if (folders.length === 0) return;
    const scanned = paths.filter((p) => opts.folders.includes(p)).length;
    const changes = paths.length - scanned;
    const started = performance.now();
    let summary: IngestSummary;
    try {
      summary = await opts.ingest(folders, (c) =>
        log.info(
          c.change === "moved" ? `watch: moved ${c.from ?? "?"} -> ${c.source}` : `watch: ${c.change} ${c.source}`,
          c.change === "removed" || c.change === "moved" ? {} : { chunks: c.chunks },
        ),
      );
    } catch (err) {
      const e = toGroundkitError(err);
      // Not lost: its paths are retried, later each time it fails again (up to a minute apart).
      const delayMs = Math.min(60_000, 1000 * 2 ** failures++);
      log.warn(`watch: the batch failed and is retried in ${delayMs / 1000} s: error[${e.code}] ${e.message}`);
      opts.onBatch?.({ changes, scanned, folders, summary: undefined, error: e.message });
      for (const p of paths) toRetry.add(p);
      clearTimeout(retry);
      retry = setTimeout(() => {
        for (const p of toRetry) batcher.add(p);
        toRetry.clear();
      }, delayMs);
      return;
    }
    failures = 0;
    for (const f of summary.failed) log.warn(`watch: failed ${f.source}: error[${f.code}] ${f.message}`);
    log.info(
      `watch: ${describeBatch(scanned, changes)}: ${summary.indexed} indexed, ${summary.moved} moved, ${summary.removed} removed, ` +
        `${summary.unchanged} unchanged, ${summary.failed.length} failed`,
      { duration_ms: Math.round(performance.now() - started) },
    );
    initialScanDone = true;
    opts.onBatch?.({ changes, scanned, folders, summary });
  };
  const batcher = new ChangeBatcher(runBatch, opts);

  const watchers = opts.folders.map(
    (root) =>
      new TreeWatcher(root, {
        relevant,
        onChange: (path) => batcher.add(path),
        onWatchError: (dir, err) =>
          log.warn(
            `watch: cannot watch ${dir} (${err.code ?? err.message}): changes in it are not seen` +
              (err.code === "ENOSPC" ? "; raise fs.inotify.max_user_watches" : err.code === "EMFILE" ? "; raise fs.inotify.max_user_instances" : ""),
          ),
        onRoot: (isThere) => {
          present.set(root, isThere);
          if (isThere) log.info(`watch: ${root} is back; re-reading it`);
          else log.warn(`watch: ${root} is gone; its documents stay indexed until it is back`);
        },
      }),
  );
  try {
    await Promise.all(watchers.map((w) => w.start()));
  } catch (err) {
    // A root that cannot be watched fails the start (WATCH_UNAVAILABLE): nothing is left running.
    for (const w of watchers) w.close();
    await batcher.close();
    throw err;
  }
  log.info(`watch: watching ${opts.folders.length} folder tree(s)`, { folders: watchers.reduce((n, w) => n + w.folders, 0) });
  for (const root of opts.folders) batcher.add(root);

  return {
    close: async () => {
      clearTimeout(retry);
      for (const w of watchers) w.close();
      await batcher.close();
    },
    folderCount: () => watchers.reduce((n, w) => n + w.folders, 0),
  };
}
