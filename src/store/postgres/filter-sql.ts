/**
 * Compiling a parsed {@link ChunkFilter} into a PostgreSQL predicate over the
 * documents (`d`) and chunks (`c`) aliases, the counterpart of
 * store/sqlite/filter-sql.ts. Every value is a bound parameter; text is
 * compared byte-wise (COLLATE "C"), as SQLite does, whatever the server's
 * collation.
 *
 * A path glob has no SQL form with the exact semantics of core/glob.ts, so it
 * arrives already resolved (the caller matched the documents' paths in code,
 * under the same step budget as SQLite's grk_glob) as a list of document ids.
 */
import type { ChunkFilter, FilterClause } from "../store.js";

/** Positional parameters ($1, $2, …) collected while SQL is built. */
export class Params {
  readonly values: unknown[] = [];

  constructor(first: unknown[] = []) {
    this.values.push(...first);
  }

  /** Add a value; returns its placeholder, with a cast when given. */
  add(value: unknown, cast = ""): string {
    this.values.push(value);
    return `$${this.values.length}${cast}`;
  }
}

/** A document's filterable path: relative to its base dir, or the URL for a snapshot. */
export const PATH_OF_DOCUMENT = `COALESCE(d.metadata::jsonb->>'rel_path', d.source)`;

/** Field names the parser accepts; checked again here because they reach SQL as values, but fail closed all the same. */
const FIELD = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** Documents passing each path glob (by {@link globKey}), computed by the caller. */
export type ResolvedGlobs = ReadonlyMap<string, readonly number[]>;

/** A path glob as the caller resolves it: against the document's path, or (absolute) its source. */
export interface PathGlob {
  glob: string;
  absolute: boolean;
}

/** The key a resolved glob is found under: the same glob, relative or absolute, matches different paths. */
export function globKey(g: PathGlob): string {
  return `${g.absolute ? "abs" : "rel"}:${g.glob}`;
}

/** The predicate that keeps exactly the chunks passing every clause. */
export function compileChunkFilter(filter: ChunkFilter, globs: ResolvedGlobs, params: Params): string {
  const parts = filter.clauses.map((c) => compileClause(c, globs, params));
  return parts.length > 0 ? parts.join(" AND ") : "TRUE";
}

function compileClause(c: FilterClause, globs: ResolvedGlobs, params: Params): string {
  switch (c.kind) {
    case "path_prefix":
      // An absolute prefix is matched against the absolute source, as SQLite does (store/sqlite/filter-sql.ts).
      return `starts_with(${c.absolute ? "d.source" : PATH_OF_DOCUMENT} COLLATE "C", ${params.add(c.prefix, "::text")})`;
    case "path_glob": {
      const ids = globs.get(globKey({ glob: c.glob, absolute: c.absolute ?? false }));
      if (!ids) throw new Error(`path glob ${JSON.stringify(c.glob)} reached the SQL compiler unresolved`);
      return `d.id = ANY(${params.add(ids, "::bigint[]")})`;
    }
    case "class":
      return `d.source_class = ${params.add(c.sourceClass, "::text")}`;
    case "ext":
      return `(d.metadata::jsonb->>'ext') = ${params.add(c.ext, "::text")}`;
    case "ingested":
      return `d.ingested_at COLLATE "C" ${c.op} ${params.add(c.at, "::text")}`;
    case "tag":
      return `(${metadataContains("tags", c.value, params)} OR ${metadataContains("tag", c.value, params)})`;
    case "metadata":
      return metadataContains(c.field, c.value, params);
    case "symbol":
      return `EXISTS (SELECT 1 FROM jsonb_array_elements_text(COALESCE(c.metadata::jsonb->'symbol_keys', '[]'::jsonb)) AS k(v) WHERE k.v = ${params.add(c.name, "::text")})`;
  }
}

/** A metadata field equals the value, or (when it is a list) contains it, as SQLite's json_each does. */
function metadataContains(field: string, value: string, params: Params): string {
  if (!FIELD.test(field)) throw new Error(`unchecked metadata field name reached the SQL compiler: ${JSON.stringify(field)}`);
  const f = params.add(field, "::text");
  const v = params.add(value, "::text");
  return `EXISTS (SELECT 1 FROM jsonb_array_elements_text(CASE jsonb_typeof(d.metadata::jsonb->${f})
      WHEN 'array' THEN d.metadata::jsonb->${f} ELSE jsonb_build_array(d.metadata::jsonb->${f}) END) AS e(v) WHERE e.v = ${v})`;
}

/** The path globs a filter holds, each once (each must be resolved before compiling). */
export function globsOf(filter: ChunkFilter): PathGlob[] {
  const out = new Map<string, PathGlob>();
  for (const c of filter.clauses) {
    if (c.kind !== "path_glob") continue;
    const g = { glob: c.glob, absolute: c.absolute ?? false };
    out.set(globKey(g), g);
  }
  return [...out.values()];
}
