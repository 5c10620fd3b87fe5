/** `grk rm <path>…`: remove documents by path (a folder: every document under it), URL or id. */
import { Command } from "commander";
import { openCollection } from "../collection/index.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { documentRef } from "./document-ref.js";
import { displaySource } from "./format.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";

export function rmCommand(): Command {
  const cmd = new Command("rm")
    .description("remove documents from a collection by path (a folder removes everything under it), URL or document id")
    .argument("<paths...>", "paths as ingested or as printed (relative to here, or absolute), URLs, or document ids / unique prefixes");
  withLockTimeoutOption(cmd);
  withCommonOptions(cmd).action(
    action(async (typed: string[], flags: CommonFlags & LockTimeoutFlags) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        const out = await col.removeDocuments(typed.map(documentRef), lockWait(flags, col.name));
        if (flags.json) printJson({ collection: col.name, ...out });
        else {
          println(`removed ${out.removed.length} document(s)`);
          for (const d of out.removed) println(`  ${displaySource(d.source)}`);
          for (const r of out.roots_forgotten) println(`forgot root ${displaySource(r)} (update no longer re-ingests it)`);
          for (const r of out.not_found) println(`not in collection '${col.name}': ${displaySource(r)}`);
        }
        return out.not_found.length > 0 ? 1 : 0;
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}
