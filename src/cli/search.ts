/** `grk search <query>`: BM25 search with citations, optionally verified. */
import { Command } from "commander";
import { openCollection } from "../collection.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { renderHit } from "./format.js";

interface SearchFlags extends CommonFlags {
  topK?: number;
  verify?: boolean;
  baseDir?: string;
}

export function searchCommand(): Command {
  const cmd = new Command("search")
    .description("search a collection; every hit carries a citation")
    .argument("<query>", "what to search for")
    .option("-k, --top-k <n>", "number of results (1-100)", intFlag("--top-k", 1, 100), 10)
    .option("--verify", "re-check every hit against its source")
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (query: string, flags: SearchFlags) => {
      const col = openCollection(resolveLocation(flags));
      try {
        const results = await col.search(query, { topK: flags.topK, verify: flags.verify, baseDir: flags.baseDir });
        if (flags.json) {
          printJson({ query, collection: col.name, mode: "bm25", results });
          return;
        }
        if (results.length === 0) println("no results");
        for (const hit of results) for (const line of renderHit(hit)) println(line);
      } finally {
        col.close();
      }
    }),
  );
  return cmd;
}
