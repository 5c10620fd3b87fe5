/**
 * SQL functions groundkit registers on each connection, so filters run inside
 * the query.
 *
 * `grk_glob` runs synchronously on the caller's thread (the server's event
 * loop), once per document a filtered statement visits. The matcher is linear
 * (see core/glob.ts), and every statement that may call it runs under
 * {@link SqlFunctions.metered}: a step budget shared by all its glob calls, so
 * what a pattern's shape adds is capped at GLOB_STEPS_PER_STATEMENT steps
 * however large the collection; past it the filter is refused. What is left is
 * one call per document (≈ 1-3 µs), which grows with the collection like every
 * other part of a filtered query.
 */
import { compileGlob, type GlobMatcher, type GlobMeter } from "../../core/glob.js";
import { GroundkitError } from "../../core/errors.js";
import type { Db } from "./db.js";

/**
 * Matching steps (cells visited, atoms tested) one statement's globs may spend
 * in all: ≈ 0.3-0.4 s of CPU at 6-8 ns a step. `**\/*.md` spends ~10 steps a
 * document; a literal run between stars (`docs/**\/*-notes*.md`) ~150, so on
 * collections past ~300k documents such a glob is refused (use path^=).
 */
export const GLOB_STEPS_PER_STATEMENT = 50_000_000;

/** The connection's hooks into its SQL functions. */
export interface SqlFunctions {
  /** Run a statement that may call `grk_glob`, with a fresh step budget. */
  metered<T>(run: () => T): T;
}

function tooCostly(pattern: string): GroundkitError {
  return new GroundkitError(
    "INVALID_FILTER",
    `The path filter '${pattern.slice(0, 80)}' needs more than ${GLOB_STEPS_PER_STATEMENT} matching steps on this ` +
      "collection; use a simpler glob (fewer '*' per segment, shorter literal runs) or path^=<prefix>.",
  );
}

export function registerFunctions(db: Db): SqlFunctions {
  const matchers = new Map<string, GlobMatcher>();
  let meter: (GlobMeter & { pattern: string }) | undefined;

  const glob = (pattern: unknown, value: unknown): number => {
    if (typeof pattern !== "string" || typeof value !== "string") return 0;
    // Fail closed: an unmetered caller is a bug, not an unbounded query.
    if (!meter) throw new Error("grk_glob ran outside SqlFunctions.metered");
    let m = matchers.get(pattern);
    if (!m) {
      m = compileGlob(pattern, { dot: true, errorCode: "INVALID_FILTER" });
      if (matchers.size >= 256) matchers.clear();
      matchers.set(pattern, m);
    }
    meter.pattern = pattern;
    return m(value, meter) ? 1 : 0;
  };
  db.function("grk_glob", { deterministic: true }, glob);

  return {
    metered(run) {
      let remaining = GLOB_STEPS_PER_STATEMENT;
      const outer = meter;
      const budget: GlobMeter & { pattern: string } = {
        pattern: "",
        spend: (steps) => {
          remaining -= steps;
          if (remaining < 0) throw tooCostly(budget.pattern);
        },
      };
      meter = budget;
      try {
        return run();
      } finally {
        meter = outer;
      }
    },
  };
}
