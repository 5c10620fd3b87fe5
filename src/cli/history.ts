/** `grk history <path-or-doc-id>`: a document's versions kept (docs/decisions/0031-document-history.md). */
import { Command } from "commander";
import { openCollection } from "../collection/index.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { documentRef } from "./document-ref.js";
import { displaySource } from "./format.js";

export function historyCommand(): Command {
  const cmd = new Command("history")
    .description("list a document's versions: the current one (0) and the previous ones kept, newest first (read one with `grk get --version N`)")
    .argument("<document>", "a path (as ingested or as printed), a URL, or a document id (a removed document: its path or full id)");
  withCommonOptions(cmd).action(
    action(async (typed: string, flags: CommonFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        const history = await col.history(documentRef(typed));
        if (flags.json) {
          printJson({ collection: col.name, ...history });
          return;
        }
        println(`${displaySource(history.source)}  document ${history.document_id}`);
        for (const v of history.versions) {
          const moved = v.source !== history.source ? `  at ${displaySource(v.source)}` : "";
          const until = v.superseded_at ? `  ${v.status} ${v.superseded_at}` : "  current";
          const bytes = v.bytes === null ? "" : `, ${v.bytes} bytes`;
          println(`${String(v.version).padStart(3)}  ingested ${v.ingested_at}${until}  (${v.chars} chars${bytes})${moved}`);
        }
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}
