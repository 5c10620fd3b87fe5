/**
 * Where `grk eval` finds the golden corpus when no path is given: `evals/` in
 * the working directory (a clone, or a project with its own set), else the copy
 * that ships inside the installed groundkit package, so `grk eval` works from
 * any folder after `npm install`.
 */
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { packageRoot } from "../core/package-root.js";

/** The default paths, relative to the working directory, as documented. */
export const GOLDEN_CORPUS_DIR = join("evals", "corpus");
export const GOLDEN_JUDGMENTS = join("evals", "judgments.jsonl");

/** A corpus folder and its judgments file. */
export interface GoldenPaths {
  corpusDir: string;
  judgments: string;
}

/**
 * Fill in the paths the user did not give. Both defaulted: the working
 * directory's `evals/` when its judgments file exists, else the shipped copy.
 * One given: the other keeps its working-directory default.
 *
 * @example
 *   goldenPaths({}, "/tmp/anywhere") // { corpusDir: "<groundkit>/evals/corpus", judgments: "<groundkit>/evals/judgments.jsonl" }
 */
export function goldenPaths(given: Partial<GoldenPaths>, cwd: string = process.cwd(), root: string = packageRoot()): GoldenPaths {
  if (given.corpusDir !== undefined || given.judgments !== undefined) {
    return { corpusDir: given.corpusDir ?? GOLDEN_CORPUS_DIR, judgments: given.judgments ?? GOLDEN_JUDGMENTS };
  }
  if (existsSync(resolve(cwd, GOLDEN_JUDGMENTS))) return { corpusDir: GOLDEN_CORPUS_DIR, judgments: GOLDEN_JUDGMENTS };
  return { corpusDir: join(root, GOLDEN_CORPUS_DIR), judgments: join(root, GOLDEN_JUDGMENTS) };
}
