/**
 * One way to turn a zod validation failure into a message, for every place that
 * validates input (config files, tool arguments, citations, judgments, reports).
 * zod's messages describe the rule and never echo the rejected value, so the
 * text is safe to show even when the value was a secret.
 */
import type { z } from "zod";

export interface FormatIssuesOptions {
  /** Label for an issue at the root of the value (default `(root)`). */
  root?: string;
  /** Most issues to list (default: all). */
  max?: number;
}

/**
 * Render zod issues as `path: message; path: message`.
 *
 * @example
 *   formatIssues(schema.safeParse(raw).error!); // "chunk_size: Too small: expected number to be >0"
 */
export function formatIssues(error: z.ZodError, opts: FormatIssuesOptions = {}): string {
  const issues = opts.max === undefined ? error.issues : error.issues.slice(0, opts.max);
  return issues
    .map((issue) => {
      const where = issue.path.length > 0 ? issue.path.join(".") : (opts.root ?? "(root)");
      const what = issue.code === "unrecognized_keys" ? `unknown field(s) ${issue.keys.join(", ")}` : issue.message;
      return `${where}: ${what}`;
    })
    .join("; ");
}
