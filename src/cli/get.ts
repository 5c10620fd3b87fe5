/** `grk get <path-or-doc-id>[:start-end]`: lines of a document's indexed text, with their citation. */
import { Command } from "commander";
import { openCollection, type Collection } from "../collection/index.js";
import { DOCUMENT_CHARS } from "../cite/read-document.js";
import { GroundkitError } from "../core/errors.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { parseRangedRef } from "./document-ref.js";
import { displaySource, locator } from "./format.js";

interface GetFlags extends CommonFlags {
  maxChars?: number;
  baseDir?: string;
  version?: string;
}

export function getCommand(): Command {
  const cmd = new Command("get")
    .description("print lines of a document's indexed text with a citation for them (verified against the source)")
    .argument("<document>", "a path (as ingested or as printed), a URL, or a document id or unique prefix; add :START-END for lines")
    .option(
      "--max-chars <n>",
      `most code points to print (default ${DOCUMENT_CHARS.default}); a longer range stops at the last whole line`,
      intFlag("--max-chars", 1, DOCUMENT_CHARS.max),
    )
    .option("--base-dir <dir>", "containment root for reading the source (default: recorded at ingest)")
    .option("--version <n|time>", "read a version kept in the collection's history: its number in `grk history` (0: current) or its ingest time");
  withCommonOptions(cmd).action(
    action(async (typed: string, flags: GetFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        if (flags.version !== undefined) {
          await printVersion(col, typed, flags);
          return;
        }
        const { ref, startLine, endLine } = await parseRangedRef(typed, (r) => exists(() => col.findDocument(r)));
        const view = await col.getDocument(ref, { startLine, endLine, maxChars: flags.maxChars, baseDir: flags.baseDir });
        if (flags.json) {
          printJson({ collection: col.name, ...view });
          return;
        }
        const extent = view.lines_of === "file" ? `${view.total_lines} lines` : `${view.total_lines} lines of extracted text`;
        println(`${locator(view.citation)}  [${view.verification.verdict}]  (${extent})`);
        println("");
        println(view.text);
        println("");
        if (view.truncated) {
          const more = view.next_line ? ` continue with \`grk get ${displaySource(view.source)}:${view.next_line}-\`` : "";
          println(`(cut to --max-chars ${flags.maxChars ?? DOCUMENT_CHARS.default};${more})`);
        }
        println(JSON.stringify(view.citation));
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}

/**
 * A version from the history, as indexed (not re-read from the source, which has changed since): whole, or the
 * lines asked for, cut to --max-chars.
 */
async function printVersion(col: Collection, typed: string, flags: GetFlags): Promise<void> {
  const { ref, startLine, endLine } = await parseRangedRef(typed, async (r) => (await col.history(r).then(() => true, () => false)));
  const version = await col.readVersion(ref, flags.version!);
  const lines = version.text.split("\n");
  const first = Math.max(1, startLine ?? 1);
  const picked = lines.slice(first - 1, endLine ?? lines.length).join("\n");
  const max = flags.maxChars ?? DOCUMENT_CHARS.default;
  const cps = Array.from(picked);
  const text = cps.length > max ? cps.slice(0, max).join("") : picked;
  if (flags.json) {
    printJson({ collection: col.name, ...version, text, start_line: first, truncated: cps.length > max });
    return;
  }
  const exact = version.exact ? "" : "  (whitespace between chunks rebuilt)";
  println(`${displaySource(version.source)}  version ${version.version}, ingested ${version.ingested_at}${exact}`);
  println("");
  println(text);
  if (cps.length > max) println(`(cut to --max-chars ${max})`);
}

/** Whether looking the reference up succeeds (a missing document is false; other errors are real). */
async function exists(lookup: () => Promise<unknown>): Promise<boolean> {
  try {
    await lookup();
    return true;
  } catch (err) {
    if (err instanceof GroundkitError && (err.code === "DOCUMENT_NOT_FOUND" || err.code === "AMBIGUOUS_ID")) return false;
    throw err;
  }
}
