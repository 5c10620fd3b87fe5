/**
 * Options given to a command group reach the subcommand that runs.
 *
 * Why: `collections` and its subcommands (`delete`, `copy`) declare the same options
 * (`--index-dir`, `--config`, …). By default commander lets a parent parse its options
 * anywhere on the line, so in `grk collections delete NAME --index-dir DIR` the parent
 * took `--index-dir` and `delete` ran on the default folder (issue 25 #1). Two rules fix
 * that for every group: options after a subcommand's name are that subcommand's
 * (positional options), and an option given to the group before the subcommand's name
 * is handed down to the subcommand when it declares it and was not given it itself.
 */
import type { Command } from "commander";

/** Apply both rules to `program` and every command group below it. */
export function passOptionsToSubcommands(program: Command): Command {
  for (const group of groups(program)) group.enablePositionalOptions();
  program.hook("preAction", (_root, actionCommand) => inheritGroupOptions(actionCommand));
  return program;
}

function groups(cmd: Command): Command[] {
  if (cmd.commands.length === 0) return [];
  return [cmd, ...cmd.commands.flatMap(groups)];
}

/** Copy each option an ancestor was given (not defaulted) to `cmd` when `cmd` declares it and did not get it. */
function inheritGroupOptions(cmd: Command): void {
  for (let parent = cmd.parent; parent; parent = parent.parent) {
    for (const [key, value] of Object.entries(parent.opts())) {
      const from = parent.getOptionValueSource(key);
      if (from === undefined || from === "default" || from === "implied") continue;
      if (!declares(cmd, key)) continue;
      const own = cmd.getOptionValueSource(key);
      if (own !== undefined && own !== "default" && own !== "implied") continue;
      cmd.setOptionValueWithSource(key, value, from);
    }
  }
}

function declares(cmd: Command, key: string): boolean {
  return cmd.options.some((o) => o.attributeName() === key);
}
