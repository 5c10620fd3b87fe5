/** `grk ls [prefix]`: the documents of a collection, a page at a time. */
import { resolve, sep } from "node:path";
import { Command } from "commander";
import { DOCUMENT_PAGE, openCollection } from "../collection/index.js";
import { hasUrlScheme } from "../net/url-shape.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { displaySource } from "./format.js";

interface LsFlags extends CommonFlags {
  limit?: number;
  after?: string;
}

export function lsCommand(): Command {
  const cmd = new Command("ls")
    .description("list a collection's documents (class, chunks, ingest time), in source order")
    .argument("[prefix]", "only sources starting with this path (relative to here, or absolute) or URL prefix")
    .option("--limit <n>", `documents per page (1-${DOCUMENT_PAGE.max})`, intFlag("--limit", 1, DOCUMENT_PAGE.max), DOCUMENT_PAGE.default)
    .option("--after <source>", "start after this source (the `next_after` of the previous page)");
  withCommonOptions(cmd).action(
    action(async (prefix: string | undefined, flags: LsFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        const page = await col.listDocuments({ prefix: prefix === undefined ? undefined : sourcePrefix(prefix), after: flags.after, limit: flags.limit });
        if (flags.json) {
          printJson({ collection: col.name, ...page });
          return;
        }
        if (page.documents.length === 0) println("no documents");
        for (const d of page.documents) {
          println(`${d.document_id.slice(0, 8)}  ${d.source_class.padEnd(9)}  ${String(d.chunks).padStart(5)} chunks  ${d.ingested_at}  ${displaySource(d.source)}`);
        }
        if (page.next_after) println(`more: ${nextPageCommand(prefix, flags, page.next_after)}`);
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}

/** Quote a word for a POSIX shell when it needs it. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** The command that prints the next page: the same prefix and the flags that chose the collection and page size. */
function nextPageCommand(prefix: string | undefined, flags: LsFlags, after: string): string {
  const words = ["grk", "ls"];
  if (prefix !== undefined) words.push(prefix);
  if (flags.indexDir !== undefined) words.push("--index-dir", flags.indexDir);
  if (flags.collection !== undefined) words.push("--collection", flags.collection);
  if (flags.config !== undefined) words.push("--config", flags.config);
  if (flags.limit !== undefined && flags.limit !== DOCUMENT_PAGE.default) words.push("--limit", String(flags.limit));
  words.push("--after", after);
  return words.map(shellWord).join(" ");
}

/** A typed prefix as a source prefix: URLs as typed, paths absolute (a trailing separator kept: `docs/` is a folder). */
function sourcePrefix(typed: string): string {
  if (hasUrlScheme(typed)) return typed;
  const abs = resolve(typed);
  return (typed.endsWith("/") || typed.endsWith(sep)) && !abs.endsWith(sep) ? abs + sep : abs;
}
