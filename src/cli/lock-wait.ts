/** `--lock-timeout`: how long a writing command waits for another writer of its collection. */
import type { Command } from "commander";
import type { LockWaitOptions } from "../collection/index.js";
import { DEFAULTS } from "../core/config.js";
import { describeWait } from "../store/writer-lock-holder.js";
import { intFlag } from "./common.js";

export interface LockTimeoutFlags {
  lockTimeout?: number;
}

/** Add `--lock-timeout <seconds>` to a writing command. */
export function withLockTimeoutOption(cmd: Command): Command {
  return cmd.option(
    "--lock-timeout <seconds>",
    "wait this long for another writer of the collection (ingest, reembed, delete) before failing with COLLECTION_BUSY; 0: do not wait",
    intFlag("--lock-timeout", 0, 86_400),
    DEFAULTS.lockTimeoutMs / 1000,
  );
}

/** The lock wait of a command: its timeout, and a line on stderr when it starts waiting. */
export function lockWait(flags: LockTimeoutFlags, collection: string): LockWaitOptions {
  const seconds = flags.lockTimeout ?? DEFAULTS.lockTimeoutMs / 1000;
  return {
    lockTimeoutMs: seconds * 1000,
    onLockWait: (holder) => process.stderr.write(`${describeWait(collection, holder)} (up to ${seconds} s; see --lock-timeout)\n`),
  };
}
