/**
 * Asking before something that cannot be undone. At a terminal the user types
 * the answer; anywhere else (a script, a pipe, a CI job) nobody can answer, so the
 * command is refused unless `--yes` says the caller means it: a script that forgot
 * the flag fails loudly instead of deleting, or hanging on a prompt nobody sees.
 */
import { createInterface } from "node:readline/promises";
import { GroundkitError } from "../core/errors.js";

/**
 * Resolve when the user confirmed (or `yes` was given); false when they declined.
 *
 * @throws GroundkitError USAGE when stdin is not a terminal and `yes` was not given
 */
export async function confirmed(question: string, opts: { yes?: boolean; flag: string }): Promise<boolean> {
  if (opts.yes) return true;
  if (!process.stdin.isTTY) {
    throw new GroundkitError("USAGE", `${question.replace(/\?$/, "")}: refused, stdin is not a terminal to confirm on.`, undefined, {
      hint: `Pass ${opts.flag} to confirm without a prompt (scripts), or run the command at a terminal.`,
    });
  }
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^(y|yes)$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
