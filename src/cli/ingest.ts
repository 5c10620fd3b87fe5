/** `grk ingest <paths...>`: index files and folders incrementally. */
import { Command } from "commander";
import { DEFAULTS } from "../core/config.js";
import { openCollection, removeIfUnused } from "../collection.js";
import type { IngestSummary } from "../ingest/ingest.js";
import { action, collect, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { displaySource } from "./format.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";
import { createProgress, createRate } from "./progress.js";
import { keepWatching, watchedFolders, withDebounceOption } from "./watch-folders.js";

interface IngestFlags extends CommonFlags, LockTimeoutFlags {
  baseDir?: string;
  include?: string[];
  exclude?: string[];
  chunkSize?: number;
  chunkOverlap?: number;
  maxFileSize?: number;
  allowPrivateNetwork?: boolean;
  timeout?: number;
  dense?: boolean;
  progress?: boolean;
  watch?: boolean;
  debounce?: number;
}

export function ingestCommand(): Command {
  const cmd = new Command("ingest")
    .description(
      "ingest files, folders (Markdown, text, PDF, HTML) and http(s) URLs into a collection; unchanged sources are skipped",
    )
    .argument("<paths...>", "files, folders or http(s) URLs to ingest")
    .option("--base-dir <dir>", "containment root (default: the ingested folder, or a file's parent)")
    .option("--include <glob>", "only files matching this glob (repeatable)", collect)
    .option("--exclude <glob>", "skip files matching this glob (repeatable)", collect)
    .option("--chunk-size <n>", "chunk size in characters", intFlag("--chunk-size", 64, 100_000))
    .option("--chunk-overlap <n>", "chunk overlap in characters", intFlag("--chunk-overlap", 0, 50_000))
    .option("--max-file-size <bytes>", "refuse files larger than this", intFlag("--max-file-size", 1, 2 ** 31 - 1))
    .option("--allow-private-network", "allow URLs on loopback/private hosts (link-local and metadata stay refused)")
    .option("--timeout <seconds>", "total time allowed to fetch one URL", intFlag("--timeout", 1, 3600), 30)
    .option("--dense", "also embed chunks (default: the local model; see `embedding` in the config) and backfill chunks without vectors")
    .option("--no-progress", "never show the progress line")
    .option("--watch", "after ingesting, keep the folders indexed as files change, until SIGINT/SIGTERM (one log line per change)");
  withLockTimeoutOption(cmd);
  withDebounceOption(cmd);
  withCommonOptions(cmd).action(
    action(async (paths: string[], flags: IngestFlags) => {
      const loc = resolveLocation(flags);
      const folders = flags.watch ? watchedFolders(paths) : [];
      const col = await openCollection({ ...loc, create: true });
      const progress = createProgress(flags.progress !== false);
      const embedRate = createRate("chunks");
      const indexRate = createRate("vectors");
      const options = {
        baseDir: flags.baseDir,
        include: flags.include ?? loc.config.include,
        exclude: flags.exclude ?? loc.config.exclude,
        // Only flags ask for other chunking; the config file's settings apply to a new collection (resolveLocation).
        chunkSize: flags.chunkSize,
        chunkOverlap: flags.chunkOverlap,
        maxFileSize: flags.maxFileSize ?? loc.config.max_file_size ?? DEFAULTS.maxFileSize,
        allowPrivateNetwork: flags.allowPrivateNetwork ?? false,
        fetchTimeoutMs: (flags.timeout ?? 30) * 1000,
        dense: flags.dense ?? false,
        ...lockWait(flags, col.name),
      };
      if (flags.watch) {
        try {
          await keepWatching(folders, flags.debounce ?? 300, async (watched, onChange) =>
            // A collection with vectors stays dense: new chunks are embedded as they are written.
            col.ingest(watched, { ...options, dense: options.dense || (await col.status()).embedding !== null, onChange }),
          );
        } finally {
          await col.close();
        }
        return 0;
      }
      let summary: IngestSummary;
      try {
        summary = await col.ingest(paths, {
          ...options,
          onEmbedProgress: (done, total) => progress.update(`embedding: ${done}/${total} chunks ${embedRate(done, total)}`),
          onIndexProgress: (done, total) => progress.update(`vector index: ${done}/${total} vectors ${indexRate(done, total)}`),
          onProgress: (p) =>
            progress.update(
              `ingest: ${p.files_seen} seen, ${p.indexed} indexed, ${p.unchanged} unchanged, ${p.failed} failed  ${p.current ? displaySource(p.current) : ""}`,
            ),
        });
      } catch (err) {
        progress.done();
        await col.close();
        if (col.createdNow) await removeIfUnused({ indexDir: loc.indexDir, collection: col.name });
        throw err;
      }
      progress.done();
      await col.close();
      if (col.createdNow) await removeIfUnused({ indexDir: loc.indexDir, collection: col.name });
      if (flags.json) printJson({ collection: col.name, ...summary });
      else printSummary(summary);
      return summary.failed.length > 0 ? 1 : 0;
    }),
  );
  return cmd;
}

/** Unsupported files named in the text summary (all of them are in --json). */
const UNSUPPORTED_LISTED = 20;

/** The text summary of an ingest (or an update). */
export function printSummary(s: IngestSummary): void {
  println(
    `files seen ${s.files_seen}, indexed ${s.indexed}, unchanged ${s.unchanged}, removed ${s.removed}, ` +
      `chunks written ${s.chunks_written}${s.vectors_written ? `, vectors written ${s.vectors_written}` : ""}, ` +
      `failed ${s.failed.length} (${(s.duration_ms / 1000).toFixed(2)} s)`,
  );
  const c = s.chunking;
  if (c?.rechunked && c.previous) {
    println(
      `re-chunked every document of this run: chunk size ${c.previous.chunk_size} -> ${c.chunk_size}, ` +
        `overlap ${c.previous.chunk_overlap} -> ${c.chunk_overlap} (the collection now records these)`,
    );
  }
  for (const sk of s.skipped) println(`skipped ${displaySource(sk.source)}: ${sk.reason}`);
  if (s.unsupported.length) {
    println(`unsupported (not indexed): ${s.unsupported.length} file(s)`);
    for (const u of s.unsupported.slice(0, UNSUPPORTED_LISTED)) println(`  ${displaySource(u)}`);
    if (s.unsupported.length > UNSUPPORTED_LISTED) println(`  … and ${s.unsupported.length - UNSUPPORTED_LISTED} more (all of them are in --json)`);
  }
  for (const f of s.failed) println(`failed ${displaySource(f.source)}: error[${f.code}] ${f.message}`);
}
