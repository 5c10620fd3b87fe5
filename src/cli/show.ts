/** `grk show <chunk-id>`: a chunk, its citation and a fresh verdict. */
import { Command } from "commander";
import { openCollection } from "../collection/index.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { asCitedLines, locator } from "./format.js";

export function showCommand(): Command {
  const cmd = new Command("show")
    .description("show a chunk with its citation and a fresh verdict")
    .argument("<chunk-id>", "a chunk id from search results")
    .option("--base-dir <dir>", "containment root for verification (default: recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (chunkId: string, flags: CommonFlags & { baseDir?: string }) => {
      const col = await openCollection(resolveLocation(flags));
      try {
        const view = await col.getChunk(chunkId, { baseDir: flags.baseDir });
        if (flags.json) {
          printJson(view);
          return;
        }
        println(`${locator(view.citation)}  [${view.verification.verdict}]`);
        if (view.heading_path.length) println(view.heading_path.join(" > "));
        println(view.verification.detail);
        println("");
        println(view.text);
        println("");
        for (const line of asCitedLines(view.verification, "", view.text)) println(line);
        println(JSON.stringify(view.citation));
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}
