/** `grk ingest <paths...>`: index files and folders incrementally. */
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Command } from "commander";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { listCollections, openCollection, removeIfUnused } from "../collection/index.js";
import { parseHistorySpec } from "../collection/history.js";
import { isUrlSource } from "../net/url-shape.js";
import type { IngestProgress, IngestSummary } from "../ingest/ingest.js";
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
  history?: string;
}

export function ingestCommand(): Command {
  const cmd = new Command("ingest")
    .description(
      "ingest files, folders (Markdown, text, PDF, HTML, source code, configuration files) and http(s) URLs into a collection; unchanged sources are skipped",
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
    .option("--dense", "also embed chunks (default: the local model; see `embedding` in the config) and backfill chunks without vectors; a collection that has vectors is always embedded into")
    .option("--no-progress", "never show the progress line")
    .option(
      "--history <retention>",
      "keep replaced and removed documents' text: off, on, or versions=N,days=N,bytes=SIZE (recorded for the collection; default on, versions=10,days=180,bytes=256MiB)",
    )
    .option("--watch", "after ingesting, keep the folders indexed as files change, until SIGINT/SIGTERM (one log line per change)");
  withLockTimeoutOption(cmd);
  withDebounceOption(cmd);
  withCommonOptions(cmd).action(
    action(async (paths: string[], flags: IngestFlags) => {
      const loc = resolveLocation(flags);
      // Read before anything is opened: a mistyped retention creates no collection.
      const history = flags.history === undefined ? undefined : parseHistorySpec(flags.history);
      const folders = flags.watch ? watchedFolders(paths) : [];
      await refuseMissingFirstInputs(paths, loc);
      const col = await openCollection({ ...loc, create: true });
      const progress = createProgress(flags.progress !== false, { json: flags.json, command: "ingest" });
      const chunkRate = createRate("chunks");
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
        // Without --dense the collection decides: one that is already dense stays dense (collection/dense-ingest.ts).
        dense: flags.dense,
        history,
        ...lockWait(flags, col.name),
      };
      if (flags.watch) {
        try {
          await keepWatching(folders, flags.debounce ?? 300, (watched, onChange) =>
            col.ingest(watched, { ...options, onChange }),
          );
        } finally {
          await col.close();
        }
        return 0;
      }
      // Files are counted as they are read; a dense ingest also counts chunks as they are embedded.
      const files: IngestProgress = { files_seen: 0, indexed: 0, unchanged: 0, failed: 0 };
      let embedded = 0;
      const showIngest = (): void => {
        const { current, ...counts } = files;
        const chunks = options.dense || embedded > 0 ? `, ${embedded} chunks embedded ${chunkRate(embedded)}`.trimEnd() : "";
        progress.update(
          `ingest: ${files.files_seen} seen, ${files.indexed} indexed, ${files.unchanged} unchanged, ${files.failed} failed${chunks}  ${current ? displaySource(current) : ""}`,
          { phase: "ingest", ...counts, ...(options.dense || embedded > 0 ? { chunks_embedded: embedded } : {}) },
        );
      };
      let summary: IngestSummary;
      try {
        summary = await col.ingest(paths, {
          ...options,
          onChunksEmbedded: (n) => {
            embedded = n;
            showIngest();
          },
          onEmbedProgress: (done, total) =>
            progress.update(`embedding: ${done}/${total} chunks ${embedRate(done, total)}`, { phase: "backfill", done, total }),
          onIndexProgress: (done, total) =>
            progress.update(`vector index: ${done}/${total} vectors ${indexRate(done, total)}`, { phase: "vector index", done, total }),
          onProgress: (p) => {
            Object.assign(files, p);
            showIngest();
          },
        });
      } catch (err) {
        progress.done();
        await col.close();
        if (col.createdNow) await removeIfUnused({ indexDir: loc.indexDir, collection: col.name, store: loc.store });
        throw err;
      }
      progress.done();
      await col.close();
      // A new collection that indexed nothing because everything was refused or failed is removed; an
      // empty folder is a root worth keeping (it is watched or updated later).
      const refusedAll = summary.unsupported.length > 0 || summary.failed.length > 0;
      const removed = col.createdNow && refusedAll && (await removeIfUnused({ indexDir: loc.indexDir, collection: col.name, store: loc.store }));
      if (flags.json) printJson({ collection: col.name, ...summary });
      else printSummary(summary);
      if (removed) process.stderr.write(`nothing was indexed, so collection '${col.name}' was not created\n`);
      return summary.failed.length > 0 ? 1 : 0;
    }),
  );
  return cmd;
}

/**
 * A new collection is created only when some input exists: when every input is a local path that does not,
 * the ingest fails before anything is written, so a mistyped path leaves no collection, index dir or lock file.
 * An existing collection goes on as before (the missing input is reported among the failures).
 *
 * @throws GroundkitError SOURCE_NOT_FOUND
 */
async function refuseMissingFirstInputs(paths: string[], loc: ReturnType<typeof resolveLocation>): Promise<void> {
  const missing = paths.filter((p) => !isUrlSource(p) && !existsSync(resolve(p)));
  if (missing.length === 0 || missing.length < paths.length) return;
  const name = loc.collection ?? DEFAULTS.collection;
  if ((await listCollections({ indexDir: loc.indexDir, store: loc.store })).includes(name)) return;
  throw new GroundkitError(
    "SOURCE_NOT_FOUND",
    `${missing.map((p) => resolve(p)).join(", ")} ${missing.length === 1 ? "does" : "do"} not exist; nothing was written and collection '${name}' was not created.`,
  );
}

/** Unsupported files named in the text summary (all of them are in --json). */
const UNSUPPORTED_LISTED = 20;

/**
 * The text summary of an ingest (or an update). `grk update` meets the same unsupported files on every
 * run, so it counts them without naming them again (`listUnsupported: false`; --json has them all).
 */
export function printSummary(s: IngestSummary, opts: { listUnsupported?: boolean } = {}): void {
  println(
    `files seen ${s.files_seen}, indexed ${s.indexed}, unchanged ${s.unchanged}, moved ${s.moved}, removed ${s.removed}, ` +
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
  for (const f of s.indexed_by_lines) println(`indexed by lines ${displaySource(f.source)}: ${f.reason}`);
  if (s.unsupported.length && opts.listUnsupported === false) {
    println(`unsupported (not indexed): ${s.unsupported.length} file(s), as every run (their names: grk ingest, or --json)`);
  } else if (s.unsupported.length) {
    println(`unsupported (not indexed): ${s.unsupported.length} file(s)`);
    for (const u of s.unsupported.slice(0, UNSUPPORTED_LISTED)) println(`  ${displaySource(u)}`);
    if (s.unsupported.length > UNSUPPORTED_LISTED) println(`  … and ${s.unsupported.length - UNSUPPORTED_LISTED} more (all of them are in --json)`);
  }
  for (const f of s.failed) println(`failed ${displaySource(f.source)}: error[${f.code}] ${f.message}`);
}
