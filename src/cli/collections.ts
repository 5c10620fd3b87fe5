/** `grk collections` and `grk collections delete NAME`. */
import { Command } from "commander";
import { DEFAULTS } from "../core/config.js";
import { deleteCollection, listCollections, openCollection } from "../collection.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";

export function collectionsCommand(): Command {
  const cmd = new Command("collections").description("list collections (see `collections delete`)");
  withCommonOptions(cmd).action(
    action(async (flags: CommonFlags) => {
      const loc = resolveLocation(flags);
      const rows = listCollections(loc.indexDir ?? DEFAULTS.indexDir, loc.store).map((name) => {
        const col = openCollection({ indexDir: loc.indexDir, collection: name, store: loc.store });
        try {
          const s = col.status();
          return { name, documents: s.documents, chunks: s.chunks, last_ingest_at: s.last_ingest_at };
        } finally {
          col.close();
        }
      });
      if (flags.json) printJson({ collections: rows });
      else if (rows.length === 0) println("no collections");
      else for (const r of rows) println(`${r.name}\t${r.documents} documents\t${r.chunks} chunks\tlast ingest ${r.last_ingest_at ?? "never"}`);
    }),
  );
  const del = new Command("delete").description("delete a collection and everything of it").argument("<name>");
  withCommonOptions(del).action(
    action(async (name: string, flags: CommonFlags) => {
      const loc = resolveLocation(flags);
      deleteCollection({ indexDir: loc.indexDir, collection: name, store: loc.store });
      if (flags.json) printJson({ deleted: name });
      else println(`deleted collection ${name}`);
    }),
  );
  cmd.addCommand(del);
  return cmd;
}
