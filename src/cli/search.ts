/** `grk search <query>`: BM25, dense or hybrid search with citations, optionally verified. */
import { Command, Option } from "commander";
import { openCollection, type SearchMode } from "../collection.js";
import { SEARCH_MODES } from "../retrieve/search-pipeline.js";
import { action, collect, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { renderHit } from "./format.js";

interface SearchFlags extends CommonFlags {
  topK?: number;
  mode?: SearchMode;
  filter?: string[];
  rerank?: boolean;
  verify?: boolean;
  baseDir?: string;
}

export function searchCommand(): Command {
  const cmd = new Command("search")
    .description("search a collection; every hit carries a citation")
    .argument("<query>", "what to search for")
    .option("-k, --top-k <n>", "number of results (1-100)", intFlag("--top-k", 1, 100), 10)
    .addOption(new Option("--mode <mode>", "retrieval mode").choices([...SEARCH_MODES]).default("bm25"))
    .option("--filter <filter>", "restrict results, e.g. path=guides/**, class=text, ext=md, tag=security (repeatable)", collect)
    .option("--rerank", "rescore the top candidates with the configured cross-encoder")
    .option("--verify", "re-check every hit against its source")
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (query: string, flags: SearchFlags) => {
      const col = openCollection(resolveLocation(flags));
      try {
        const mode = flags.mode ?? "bm25";
        const results = await col.search(query, {
          topK: flags.topK,
          mode,
          filters: flags.filter,
          rerank: flags.rerank,
          verify: flags.verify,
          baseDir: flags.baseDir,
        });
        if (flags.json) {
          printJson({ query, collection: col.name, mode, rerank: flags.rerank ?? false, results });
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
