/**
 * Whom an extraction is for: the client whose queue share it uses and the
 * signal that cancels it (the request scope of core/request-scope.ts).
 */
import { GroundkitError } from "../core/errors.js";
import type { RequestScope } from "../core/request-scope.js";

export type JobOwner = RequestScope;

/** The refusal for work whose caller went away before it finished. */
export function cancelled(label: string | undefined, cause?: unknown): GroundkitError {
  const what = label === undefined ? "The extraction" : `The extraction of ${label}`;
  return new GroundkitError("REQUEST_CANCELLED", `${what} was cancelled: its caller went away.`, undefined, cause === undefined ? undefined : { cause });
}
