import { GroundkitError } from "./errors.js";

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Validate a collection name: it becomes a file name, so no separators, no traversal. */
export function checkCollectionName(name: string): string {
  if (!NAME.test(name) || name.includes("..")) {
    throw new GroundkitError("INVALID_COLLECTION_NAME", `Invalid collection name ${JSON.stringify(name.slice(0, 80))}.`);
  }
  return name;
}
