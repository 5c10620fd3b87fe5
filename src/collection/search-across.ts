/**
 * Searching several collections at once. Each collection ranks its own hits
 * (its own BM25 statistics, its own vectors); the rankings are fused by
 * reciprocal rank, as hybrid search fuses BM25 with dense. Raw scores are
 * never compared across collections: BM25's IDF and length normalization are
 * per collection, so the same passage scores differently in a small and a
 * large collection, and two collections may not even share a retrieval mode's
 * scale (see docs/decisions/0014-documents-and-roots.md).
 *
 * @example
 *   const hits = await searchAcross([docs, notes], "rotate the signing key", { topK: 10 });
 *   hits[0].collection // "notes"
 */
import type { Collection } from "./collection.js";
import type { SearchOptions } from "./types.js";
import type { SearchHit } from "../core/contracts.js";
import { GroundkitError } from "../core/errors.js";
import { isUnknownFilterKey } from "../retrieve/filters.js";
import { DEFAULT_RRF_K } from "../retrieve/fusion.js";
import { checkTopK } from "../retrieve/query.js";
import { compareCodeUnits } from "../core/text.js";

/** A hit of a search across collections, labelled with where it came from. */
export interface CollectionHit extends SearchHit {
  collection: string;
  /** Rank and score of the hit within its own collection's results. */
  collection_rank: number;
  collection_score: number;
}

/**
 * Search every collection and fuse: a hit's score is `1 / (60 + its rank in
 * its collection)`, so each collection's best hit comes before any
 * collection's second. Hits at the same rank are ordered by their score
 * relative to their own collection's best hit (a scale-free measure of how
 * close to the top they are), then by collection name and chunk id, so the
 * result is fully determined by the collections' own rankings.
 *
 * @throws GroundkitError INVALID_ARGUMENT when no collection is given or one is named twice
 */
export async function searchAcross(collections: readonly Collection[], query: string, opts: SearchOptions = {}): Promise<CollectionHit[]> {
  if (collections.length === 0) throw new GroundkitError("INVALID_ARGUMENT", "Name at least one collection to search.");
  const names = collections.map((c) => c.name);
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new GroundkitError("INVALID_ARGUMENT", `Collection '${twice}' is named twice.`);
  const topK = checkTopK(opts.topK);
  const all: Array<CollectionHit & { relative: number }> = [];
  // One collection after another: each search is synchronous SQLite work, so running them "in parallel" gains nothing.
  let unknownKey: unknown;
  let searched = 0;
  for (const col of collections) {
    let hits;
    try {
      hits = await col.search(query, { ...opts, topK });
    } catch (err) {
      // A front-matter field only some collections have: the others simply hold no match.
      if (!isUnknownFilterKey(err)) throw err;
      unknownKey ??= err;
      continue;
    }
    searched++;
    const best = hits[0]?.score ?? 0;
    for (const hit of hits) {
      all.push({
        ...hit,
        collection: col.name,
        collection_rank: hit.rank,
        collection_score: hit.score,
        score: 1 / (DEFAULT_RRF_K + hit.rank),
        relative: best > 0 ? hit.score / best : 0,
      });
    }
  }
  // Refused by every collection: a key no collection has is a mistake, not an empty result.
  if (searched === 0 && unknownKey !== undefined) throw unknownKey;
  all.sort(
    (a, b) =>
      a.collection_rank - b.collection_rank ||
      b.relative - a.relative ||
      compareCodeUnits(a.collection, b.collection) ||
      compareCodeUnits(a.chunk_id, b.chunk_id),
  );
  return all.slice(0, topK).map(({ relative: _relative, ...hit }, i) => ({ ...hit, rank: i + 1 }));
}

