/** `grk search <query>`: BM25, dense or hybrid search with citations, optionally verified. */
import { Command, Option } from "commander";
import { openCollection, type SearchMode } from "../collection.js";
import { SEARCH_MODES } from "../retrieve/search-pipeline.js";
import { action, collect, intFlag, numberFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { markStyleFor, renderHit } from "./format.js";

interface SearchFlags extends CommonFlags {
  topK?: number;
  mode?: SearchMode;
  filter?: string[];
  rerank?: boolean;
  verify?: boolean;
  baseDir?: string;
  minScore?: number;
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
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)")
    .option("--min-score <score>", "drop hits scoring under this (the mode's own score: BM25, cosine or RRF)", numberFlag("--min-score"));
  withCommonOptions(cmd).action(
    action(async (query: string, flags: SearchFlags) => {
      const col = openCollection(resolveLocation(flags));
      try {
        const mode = flags.mode ?? "bm25";
        const { results, no_results } = await col.searchOutcome(query, {
          topK: flags.topK,
          mode,
          filters: flags.filter,
          rerank: flags.rerank,
          verify: flags.verify,
          baseDir: flags.baseDir,
          minScore: flags.minScore,
        });
        if (flags.json) {
          printJson({ query, collection: col.name, mode, rerank: flags.rerank ?? false, results, ...(no_results ? { no_results } : {}) });
          return;
        }
        if (no_results) println(`no results: ${no_results.detail}`);
        const style = markStyleFor(process.stdout);
        for (const hit of results) for (const line of renderHit(hit, style)) println(line);
      } finally {
        col.close();
      }
    }),
  );
  return cmd;
}
