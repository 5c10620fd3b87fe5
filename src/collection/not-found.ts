/** COLLECTION_NOT_FOUND with a "did you mean" naming the nearest existing collection. */
import { GroundkitError } from "../core/errors.js";
import { nearestName } from "../core/nearest-name.js";

/**
 * The error for a collection `name` that does not exist. `existing` lists the
 * collections there are; when one is near `name` (a typo), the hint names it.
 * Listing is best effort: a store that cannot list leaves the general hint.
 */
export async function collectionNotFound(name: string, message: string, existing: () => Promise<string[]>): Promise<GroundkitError> {
  let near: string | undefined;
  try {
    near = nearestName(name, await existing());
  } catch {
    near = undefined;
  }
  const hint = near === undefined ? undefined : `Did you mean collection '${near}'? (\`grk collections\` lists them all.)`;
  return new GroundkitError("COLLECTION_NOT_FOUND", message, undefined, hint === undefined ? undefined : { hint });
}
