/** `grk update [--collection NAME | --all]`: ingest every recorded root of a collection (or of all) again. */
import { Command } from "commander";
import { listCollections, openCollection } from "../collection/index.js";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import type { IngestSummary } from "../ingest/ingest.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { displaySource } from "./format.js";
import { printSummary } from "./ingest.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";
import { createProgress } from "./progress.js";

interface UpdateFlags extends CommonFlags, LockTimeoutFlags {
  all?: boolean;
  allowPrivateNetwork?: boolean;
  timeout?: number;
  progress?: boolean;
}

export function updateCommand(): Command {
  const cmd = new Command("update")
    .description("re-ingest every root (path or URL) a collection was ingested from, with the include/exclude it was given")
    .option("--all", "update every collection in the index directory")
    .option("--allow-private-network", "allow URL roots on loopback/private hosts (link-local and metadata stay refused)")
    .option("--timeout <seconds>", "total time allowed to fetch one URL", intFlag("--timeout", 1, 3600), 30)
    .option("--no-progress", "never show the progress line");
  withLockTimeoutOption(cmd);
  withCommonOptions(cmd).action(
    action(async (flags: UpdateFlags) => {
      const loc = resolveLocation(flags);
      if (flags.all && flags.collection) throw new GroundkitError("USAGE", "Pass either --collection NAME or --all, not both.");
      const names = flags.all ? await listCollections({ indexDir: loc.indexDir ?? DEFAULTS.indexDir, store: loc.store }) : [loc.collection ?? DEFAULTS.collection];
      const results: Array<{ collection: string; roots: number } & IngestSummary> = [];
      for (const name of names) {
        const col = await openCollection({ ...loc, collection: name });
        const progress = createProgress(flags.progress !== false, { json: flags.json, command: "update" });
        try {
          const summary = await col.update({
            allowPrivateNetwork: flags.allowPrivateNetwork ?? false,
            fetchTimeoutMs: (flags.timeout ?? 30) * 1000,
            maxFileSize: loc.config.max_file_size ?? DEFAULTS.maxFileSize,
            ...lockWait(flags, name),
            onProgress: ({ current, ...counts }) =>
              progress.update(
                `update ${name}: ${counts.files_seen} seen, ${counts.indexed} indexed, ${counts.unchanged} unchanged, ${counts.failed} failed  ${current ? displaySource(current) : ""}`,
                { phase: "update", collection: name, ...counts },
              ),
          });
          results.push({ collection: name, ...summary });
        } finally {
          progress.done();
          await col.close();
        }
      }
      if (flags.json) printJson({ collections: results });
      else {
        if (results.length === 0) println("no collections");
        for (const r of results) {
          println(`collection ${r.collection}: ${r.roots} root(s)${r.roots === 0 ? " recorded (ingest a path into it first)" : ""}`);
          if (r.roots > 0) printSummary(r, { listUnsupported: false });
        }
      }
      return results.some((r) => r.failed.length > 0) ? 1 : 0;
    }),
  );
  return cmd;
}
