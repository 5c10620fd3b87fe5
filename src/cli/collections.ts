/** `grk collections` and `grk collections delete NAME`. */
import { Command } from "commander";
import { DEFAULTS } from "../core/config.js";
import { deleteCollection, listCollections, openCollection, type CollectionLocation } from "../collection/index.js";
import { GroundkitError } from "../core/errors.js";
import { STORE_KINDS, storeEnd, type StoreConfig } from "../store/store-config.js";
import { confirmed } from "./confirm.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";

export function collectionsCommand(): Command {
  const cmd = new Command("collections").description("list collections (see `collections delete`)");
  withCommonOptions(cmd).action(
    action(async (flags: CommonFlags) => {
      const loc = resolveLocation(flags);
      const rows: CollectionRow[] = [];
      for (const name of await listCollections({ indexDir: loc.indexDir ?? DEFAULTS.indexDir, store: loc.store })) {
        rows.push(await collectionRow(loc, name));
      }
      if (flags.json) printJson({ collections: rows });
      else if (rows.length === 0) println("no collections");
      else for (const r of rows) println(rowLine(r));
    }),
  );
  const del = new Command("delete")
    .description("delete a collection and everything of it (asks first at a terminal)")
    .argument("<name>")
    .option("-y, --yes", "delete without asking (required when stdin is not a terminal)");
  withCommonOptions(del).action(
    action(async (name: string, flags: CommonFlags & { yes?: boolean }) => {
      const loc = resolveLocation(flags);
      const where = { indexDir: loc.indexDir, collection: name, store: loc.store };
      // Named wrong: say so (with the nearest name) before asking anything.
      const s = await collectionSize(where);
      const question = `Delete collection '${name}' (${s.documents} documents) from ${s.location}?`;
      if (!(await confirmed(question, { yes: flags.yes, flag: "--yes" }))) {
        process.stderr.write("nothing deleted\n");
        return 1;
      }
      await deleteCollection(where);
      if (flags.json) printJson({ deleted: name });
      else println(`deleted collection ${name}`);
    }),
  );
  cmd.addCommand(del);
  cmd.addCommand(copyCommand());
  return cmd;
}

type CollectionRow =
  | { name: string; documents: number; chunks: number; last_ingest_at: string | null }
  | { name: string; error: { code: string; message: string; hint: string } };

/**
 * One collection's line of the listing. A collection that cannot be read (a
 * role without privileges on its schema, one a newer groundkit wrote) is
 * reported in its row and the others are still listed; a store that is gone
 * fails the whole listing.
 */
async function collectionRow(loc: ReturnType<typeof resolveLocation>, name: string): Promise<CollectionRow> {
  try {
    const col = await openCollection({ indexDir: loc.indexDir, collection: name, store: loc.store });
    try {
      const s = await col.status();
      return { name, documents: s.documents, chunks: s.chunks, last_ingest_at: s.last_ingest_at };
    } finally {
      await col.close();
    }
  } catch (err) {
    if (!(err instanceof GroundkitError) || err.code === "STORE_UNAVAILABLE") throw err;
    return { name, error: { code: err.code, message: err.message, hint: err.hint } };
  }
}

function rowLine(r: CollectionRow): string {
  if ("error" in r) return `${r.name}\tunreadable: ${r.error.code}: ${r.error.message}`;
  return `${r.name}\t${r.documents} documents\t${r.chunks} chunks\tlast ingest ${r.last_ingest_at ?? "never"}`;
}

/** The collection's document count and where it lives (COLLECTION_NOT_FOUND when it does not exist). */
async function collectionSize(loc: CollectionLocation): Promise<{ documents: number; location: string }> {
  const col = await openCollection({ ...loc, readonly: true });
  try {
    return { documents: (await col.status()).documents, location: col.path };
  } finally {
    await col.close();
  }
}

/** The shape of a copy end, for help and errors: `sqlite:NAME or postgres:NAME`. */
const END_SHAPE = STORE_KINDS.map((k) => `${k}:NAME`).join(" or ");

/** A copy end, `KIND:NAME`, as the store it names (store-config.ts) and the collection. */
function parseEnd(flag: string, spec: string | undefined, configured: StoreConfig | undefined): { store: StoreConfig | undefined; name: string } {
  const end = storeEnd(spec ?? "", configured);
  if (!end) throw new GroundkitError("USAGE", `${flag} must look like ${END_SHAPE} (got ${JSON.stringify(spec ?? "")}).`);
  return end;
}

function copyCommand(): Command {
  const copy = new Command("copy")
    .description("copy a collection between the SQLite and the PostgreSQL store, keeping its ids (stored citations keep verifying)")
    .requiredOption("--from <store:name>", `the collection to copy: ${END_SHAPE}`)
    .requiredOption("--to <store:name>", `a new (or empty) collection: ${END_SHAPE}`);
  withLockTimeoutOption(withCommonOptions(copy)).action(
    action(async (flags: CommonFlags & LockTimeoutFlags & { from: string; to: string }) => {
      const loc = resolveLocation(flags);
      // Each end in its store as the config file's store section says, else that store's defaults (GROUNDKIT_PG_URL).
      const from = parseEnd("--from", flags.from, loc.store);
      const to = parseEnd("--to", flags.to, loc.store);
      const source = await openCollection({ ...loc, collection: from.name, store: from.store });
      try {
        const target = await openCollection({ ...loc, collection: to.name, store: to.store, create: true });
        try {
          const done = await source.copyInto(target, {
            ...lockWait(flags, to.name),
            onProgress: flags.json ? undefined : (n, total) => process.stderr.write(`copied ${n}/${total} documents\r`),
          });
          if (flags.json) printJson({ from: flags.from, to: flags.to, ...done });
          else println(
              `copied ${done.documents} documents, ${done.chunks} chunks, ${done.vectors} vectors, ${done.history_versions} kept versions from ${flags.from} to ${flags.to}`,
            );
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
