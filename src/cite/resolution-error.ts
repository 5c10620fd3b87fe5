/**
 * Raised inside citation resolution. The verdict travels as a typed field, so
 * nothing downstream classifies a failure by matching message text.
 */
import type { Verdict } from "../core/contracts.js";

export class ResolutionError extends Error {
  constructor(
    readonly verdict: Exclude<Verdict, "verified">,
    readonly detail: string,
    /** The source is gone (its file deleted, or its document no longer indexed), not refused: its text may be elsewhere. */
    readonly gone = false,
  ) {
    super(detail);
    this.name = "ResolutionError";
  }
}

/** Shorthand for the common case: the source cannot be checked. */
export function unresolvable(detail: string, opts: { gone?: boolean } = {}): ResolutionError {
  return new ResolutionError("unresolvable", detail, opts.gone ?? false);
}
