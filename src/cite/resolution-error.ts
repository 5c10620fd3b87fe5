/**
 * Raised inside citation resolution. The verdict travels as a typed field, so
 * nothing downstream classifies a failure by matching message text.
 */
import type { Verdict } from "../core/contracts.js";

export class ResolutionError extends Error {
  constructor(
    readonly verdict: Exclude<Verdict, "verified">,
    readonly detail: string,
  ) {
    super(detail);
    this.name = "ResolutionError";
  }
}

/** Shorthand for the common case: the source cannot be checked. */
export function unresolvable(detail: string): ResolutionError {
  return new ResolutionError("unresolvable", detail);
}
