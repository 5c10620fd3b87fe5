/** `grk collections` and `grk collections delete NAME`. */
import { Command } from "commander";
import { DEFAULTS } from "../core/config.js";
import { deleteCollection, listCollections, openCollection } from "../collection.js";
import { GroundkitError } from "../core/errors.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";

export function collectionsCommand(): Command {
  const cmd = new Command("collections").description("list collections (see `collections delete`)");
  withCommonOptions(cmd).action(
    action(async (flags: CommonFlags) => {
      const loc = resolveLocation(flags);
      const rows: Array<{ name: string; documents: number; chunks: number; last_ingest_at: string | null }> = [];
      for (const name of await listCollections(loc.indexDir ?? DEFAULTS.indexDir, loc.store)) {
        const col = await openCollection({ indexDir: loc.indexDir, collection: name, store: loc.store });
        try {
          const s = await col.status();
          rows.push({ name, documents: s.documents, chunks: s.chunks, last_ingest_at: s.last_ingest_at });
        } finally {
          await col.close();
        }
      }
      if (flags.json) printJson({ collections: rows });
      else if (rows.length === 0) println("no collections");
      else for (const r of rows) println(`${r.name}\t${r.documents} documents\t${r.chunks} chunks\tlast ingest ${r.last_ingest_at ?? "never"}`);
    }),
  );
  const del = new Command("delete").description("delete a collection and everything of it").argument("<name>");
  withCommonOptions(del).action(
    action(async (name: string, flags: CommonFlags) => {
      const loc = resolveLocation(flags);
      await deleteCollection({ indexDir: loc.indexDir, collection: name, store: loc.store });
      if (flags.json) printJson({ deleted: name });
      else println(`deleted collection ${name}`);
    }),
  );
  cmd.addCommand(del);
  cmd.addCommand(copyCommand());
  return cmd;
}

/** `sqlite:NAME` or `postgres:NAME`. */
function parseEnd(flag: string, spec: string | undefined): { kind: "sqlite" | "postgres"; name: string } {
  const m = /^(sqlite|postgres):(.+)$/.exec(spec ?? "");
  if (!m) throw new GroundkitError("USAGE", `${flag} must look like sqlite:NAME or postgres:NAME (got ${JSON.stringify(spec ?? "")}).`);
  return { kind: m[1] as "sqlite" | "postgres", name: m[2]! };
}

function copyCommand(): Command {
  const copy = new Command("copy")
    .description("copy a collection between the SQLite and the PostgreSQL store, keeping its ids (stored citations keep verifying)")
    .requiredOption("--from <store:name>", "the collection to copy: sqlite:NAME or postgres:NAME")
    .requiredOption("--to <store:name>", "a new (or empty) collection: sqlite:NAME or postgres:NAME");
  withLockTimeoutOption(withCommonOptions(copy)).action(
    action(async (own: CommonFlags & LockTimeoutFlags & { from: string; to: string }, cmd: Command) => {
      // `collections` has the common options too and takes them when given after `copy`.
      const flags = { ...cmd.optsWithGlobals(), ...own } as typeof own;
      const loc = resolveLocation(flags);
      const from = parseEnd("--from", flags.from);
      const to = parseEnd("--to", flags.to);
      // PostgreSQL as the config file's store section says, else its defaults (GROUNDKIT_PG_URL).
      const postgres = loc.store?.kind === "postgres" ? loc.store : { kind: "postgres" as const };
      const storeOf = (kind: "sqlite" | "postgres") => (kind === "postgres" ? postgres : undefined);
      const source = await openCollection({ ...loc, collection: from.name, store: storeOf(from.kind) });
      try {
        const target = await openCollection({ ...loc, collection: to.name, store: storeOf(to.kind), create: true });
        try {
          const done = await source.copyInto(target, {
            ...lockWait(flags, to.name),
            onProgress: flags.json ? undefined : (n, total) => process.stderr.write(`copied ${n}/${total} documents\r`),
          });
          if (flags.json) printJson({ from: flags.from, to: flags.to, ...done });
          else println(`copied ${done.documents} documents, ${done.chunks} chunks, ${done.vectors} vectors from ${flags.from} to ${flags.to}`);
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    }),
  );
  return copy;
}
