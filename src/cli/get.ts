/** `grk get <path-or-doc-id>[:start-end]`: lines of a document's indexed text, with their citation. */
import { Command } from "commander";
import { openCollection } from "../collection/index.js";
import { DOCUMENT_CHARS } from "../cite/read-document.js";
import { GroundkitError } from "../core/errors.js";
import { action, intFlag, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { parseRangedRef } from "./document-ref.js";
import { displaySource, locator } from "./format.js";

interface GetFlags extends CommonFlags {
  maxChars?: number;
  baseDir?: string;
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
    .option("--base-dir <dir>", "containment root for reading the source (default: recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (typed: string, flags: GetFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
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
