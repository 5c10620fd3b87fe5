/** `grk search <query>`: BM25, dense or hybrid search with citations, optionally verified. */
import { Command, Option } from "commander";
import { listCollections, openCollection, type SearchMode, type SearchOptions } from "../collection/index.js";
import { DEFAULTS } from "../core/config.js";
import { GroundkitError } from "../core/errors.js";
import { searchAcross } from "../collection/search-across.js";
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
  allCollections?: boolean;
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
    .option("--min-score <score>", "drop hits scoring under this (the mode's own score: BM25, cosine or RRF)", numberFlag("--min-score"))
    .option("--all-collections", "search every collection of the index directory (also: --collection a,b)");
  withCommonOptions(cmd).action(
    action(async (query: string, flags: SearchFlags) => {
      const loc = resolveLocation(flags);
      if (flags.allCollections && flags.collection) throw new GroundkitError("USAGE", "Pass either --collection or --all-collections, not both.");
      const names = flags.allCollections
        ? await listCollections({ indexDir: loc.indexDir ?? DEFAULTS.indexDir, store: loc.store })
        : loc.collection?.includes(",")
          ? loc.collection.split(",").map((n) => n.trim())
          : undefined;
      if (names) return searchSeveral(query, names, loc, flags);
      const col = await openCollection(loc);
      try {
        const mode = flags.mode ?? "bm25";
        const { results, no_results } = await col.searchOutcome(query, searchOptions(flags));
        if (flags.json) {
          printJson({ query, collection: col.name, mode, rerank: flags.rerank ?? false, results, ...(no_results ? { no_results } : {}) });
          return;
        }
        if (no_results) println(`no results: ${no_results.detail}`);
        const style = markStyleFor(process.stdout);
        for (const hit of results) for (const line of renderHit(hit, style)) println(line);
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}

function searchOptions(flags: SearchFlags): SearchOptions {
  return {
    topK: flags.topK,
    mode: flags.mode ?? "bm25",
    filters: flags.filter,
    rerank: flags.rerank,
    verify: flags.verify,
    baseDir: flags.baseDir,
    minScore: flags.minScore,
  };
}

/** A search across several collections, fused by rank (search-across.ts); each hit says its collection. */
async function searchSeveral(query: string, names: string[], loc: ReturnType<typeof resolveLocation>, flags: SearchFlags): Promise<void> {
  if (names.length === 0) throw new GroundkitError("COLLECTION_NOT_FOUND", "There are no collections to search in this index directory.");
  const cols = [];
  try {
    for (const name of names) cols.push(await openCollection({ ...loc, collection: name }));
    const mode = flags.mode ?? "bm25";
    const results = await searchAcross(cols, query, searchOptions(flags));
    if (flags.json) {
      printJson({ query, collections: names, mode, rerank: flags.rerank ?? false, results });
      return;
    }
    if (results.length === 0) println("no results");
    const style = markStyleFor(process.stdout);
    for (const hit of results) {
      const [first, ...rest] = renderHit(hit, style);
      println(`${first}  (${hit.collection} #${hit.collection_rank})`);
      for (const line of rest) println(line);
    }
  } finally {
    for (const col of cols) await col.close();
  }
}
