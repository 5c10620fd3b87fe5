/**
 * Short ids: a unique prefix of a document or chunk id stands for the id, as
 * git accepts a short commit hash. Ids are 32 lowercase hex digits; a prefix
 * must have at least {@link MIN_ID_PREFIX} of them so a stray word is never
 * read as an id.
 */
import { GroundkitError } from "./errors.js";

/** Shortest prefix accepted for an id. */
export const MIN_ID_PREFIX = 6;

/** Candidates listed when a prefix is ambiguous. */
const LISTED = 8;

const HEX_PREFIX = /^[0-9a-f]+$/;

/** Whether `ref` could be (a prefix of) an id. */
export function looksLikeIdPrefix(ref: string): boolean {
  return ref.length >= MIN_ID_PREFIX && ref.length <= 32 && HEX_PREFIX.test(ref);
}

/**
 * The one id `ref` names: the id itself, or the only id starting with it.
 *
 * @param withPrefix ids starting with a prefix, in order, at most `limit`
 * @returns undefined when nothing matches
 * @throws GroundkitError AMBIGUOUS_ID listing the candidates
 * @example
 *   await resolveIdPrefix("chunk", "3fa9c0", (p, n) => store.chunkIdsWithPrefix(p, n)) // "3fa9c0…" (32 digits)
 */
export async function resolveIdPrefix(
  kind: "chunk" | "document",
  ref: string,
  withPrefix: (prefix: string, limit: number) => Promise<string[]>,
): Promise<string | undefined> {
  const lower = ref.toLowerCase();
  if (!looksLikeIdPrefix(lower)) return undefined;
  const found = await withPrefix(lower, LISTED + 1);
  if (found.length <= 1) return found[0];
  if (found.includes(lower)) return lower;
  const listed = found.slice(0, LISTED).join(", ") + (found.length > LISTED ? ", …" : "");
  throw new GroundkitError("AMBIGUOUS_ID", `'${ref}' is the start of more than one ${kind} id: ${listed}.`, {
    candidates: found.slice(0, LISTED),
  });
}
