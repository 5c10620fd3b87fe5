/** `grk reembed`: re-embed every chunk with the configured provider and swap atomically. */
import { Command } from "commander";
import { openCollection } from "../collection/index.js";
import { DEFAULT_EMBEDDING_CONFIG } from "../embed/registry.js";
import { describeIdentity } from "../embed/provider.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { lockWait, withLockTimeoutOption, type LockTimeoutFlags } from "./lock-wait.js";
import { createProgress, createRate } from "./progress.js";

export function reembedCommand(): Command {
  const cmd = new Command("reembed")
    .description(
      "re-embed every chunk with the provider in the config's `embedding` section (default: the local model); " +
        "the vectors and the recorded identity swap in one transaction",
    )
    .option("--no-progress", "never show the progress line");
  withLockTimeoutOption(cmd);
  withCommonOptions(cmd).action(
    action(async (flags: CommonFlags & LockTimeoutFlags & { progress?: boolean }) => {
      const loc = resolveLocation(flags);
      const col = await openCollection(loc);
      const progress = createProgress(flags.progress !== false, { json: flags.json, command: "reembed" });
      const rate = createRate("chunks");
      try {
        const res = await col.reembed(
          loc.embedding ?? DEFAULT_EMBEDDING_CONFIG,
          (done, total) => progress.update(`re-embedding: ${done}/${total} chunks ${rate(done, total)}`, { phase: "reembed", done, total }),
          lockWait(flags, col.name),
        );
        progress.done();
        const status = await col.status();
        if (flags.json) printJson({ collection: col.name, ...res, embedding: status.embedding });
        else println(`re-embedded ${res.vectors_written} chunks with ${status.embedding ? describeIdentity(status.embedding) : "?"}`);
      } finally {
        progress.done();
        await col.close();
      }
    }),
  );
  return cmd;
}
