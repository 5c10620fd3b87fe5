/** `grk verify <file|->`: verify a citation printed earlier by `search --json`. */
import { readFileSync } from "node:fs";
import { Command } from "commander";
import { openCollection, parseCitation } from "../collection.js";
import type { Verification } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { action, printJson, println, resolveLocation, withCommonOptions, type CommonFlags } from "./common.js";
import { locator } from "./format.js";

export function verifyCommand(): Command {
  const cmd = new Command("verify")
    .description("verify a citation JSON (a citation, a search hit, a search --json or an answer --json output) against its source")
    .argument("<file>", "a JSON file, or - for stdin")
    .option("--base-dir <dir>", "containment root (default: the base dir recorded at ingest)");
  withCommonOptions(cmd).action(
    action(async (file: string, flags: CommonFlags & { baseDir?: string }) => {
      const inputs = readCitations(file);
      const col = await openCollection(resolveLocation(flags));
      try {
        const results = [];
        for (const input of inputs) {
          const text = typeof (input as { text?: unknown }).text === "string" ? (input as { text: string }).text : undefined;
          const verification = await col.verify(input, { baseDir: flags.baseDir, originalText: text });
          const citation = (input as { citation?: unknown }).citation ?? input;
          results.push({ citation, ...verification });
        }
        if (flags.json) printJson(results.length === 1 ? results[0] : results);
        else for (const [i, r] of results.entries()) for (const line of renderVerdict(inputs[i], i, r)) println(line);
        return results.every((r) => r.verdict === "verified") ? 0 : 1;
      } finally {
        await col.close();
      }
    }),
  );
  return cmd;
}

/**
 * One verdict naming what it is about: the hit (its rank when the input was a
 * search hit, else its position), where the citation points, and its chunk.
 */
function renderVerdict(input: unknown, index: number, r: Verification): string[] {
  const citation = parseCitation(input);
  const rank = (input as { rank?: unknown }).rank;
  const label = typeof rank === "number" ? `hit ${rank}` : `citation ${index + 1}`;
  return [`${r.verdict}  ${label}  ${locator(citation)}  chunk ${citation.chunk_id}`, `   ${r.detail}`];
}

/** Read one citation, a list, or a whole `search --json` output. */
function readCitations(file: string): unknown[] {
  let raw: string;
  try {
    raw = readFileSync(file === "-" ? 0 : file, "utf8");
  } catch (err) {
    throw new GroundkitError("SOURCE_NOT_FOUND", `Cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? "error"}.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw new GroundkitError("INVALID_CITATION", `${file === "-" ? "stdin" : file} is not JSON.`);
  }
  if (Array.isArray(value)) return value;
  const results = (value as { results?: unknown } | null)?.results;
  if (Array.isArray(results)) return results;
  // An `answer --json` output: the citations of the quotes that were found, with their text.
  const quotes = (value as { grounding?: { quotes?: unknown } } | null)?.grounding?.quotes;
  if (Array.isArray(quotes)) {
    const cited = quotes.filter((q: { citation?: unknown }) => q.citation != null) as Array<{ citation: unknown; text: unknown }>;
    if (cited.length === 0) throw new GroundkitError("INVALID_CITATION", "The answer has no quote citations to verify.");
    return cited.map((q) => ({ citation: q.citation }));
  }
  return [value];
}
