/**
 * Compiling a parsed {@link ChunkFilter} into a SQLite predicate over the
 * documents (`d`) and chunks (`c`) aliases. Only this backend knows the SQL;
 * every value is a bound parameter, and metadata field names were checked by
 * the filter parser against a strict pattern before reaching here.
 */
import type { ChunkFilter, FilterClause } from "../store.js";

export interface SqlPredicate {
  sql: string;
  params: unknown[];
}

/** A document's filterable path: relative to its base dir, or the URL for a snapshot. */
const pathOf = (table: string): string => `COALESCE(json_extract(${table}.metadata, '$.rel_path'), ${table}.source)`;

/** Field names the parser accepts; checked again here because they are spliced into a JSON path. */
const FIELD = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The predicate that keeps exactly the chunks passing every clause. */
export function compileChunkFilter(filter: ChunkFilter): SqlPredicate {
  const parts: string[] = [];
  const params: unknown[] = [];
  for (const clause of filter.clauses) {
    const { sql, params: p } = compileClause(clause);
    parts.push(sql);
    params.push(...p);
  }
  return { sql: parts.length > 0 ? parts.join(" AND ") : "1", params };
}

/** A query selecting the ids of the chunks that pass the filter. */
export function filteredChunkIds(filter: ChunkFilter): SqlPredicate {
  const where = compileChunkFilter(filter);
  return { sql: `SELECT c.id FROM chunks c JOIN documents d ON d.id = c.doc_id WHERE ${where.sql}`, params: where.params };
}

function compileClause(c: FilterClause): SqlPredicate {
  switch (c.kind) {
    case "path_prefix":
      return { sql: `substr(${c.absolute ? "d.source" : pathOf("d")}, 1, length(?)) = ?`, params: [c.prefix, c.prefix] };
    case "path_glob":
      // A non-correlated subquery: SQLite evaluates it once, so the glob runs per document, not per chunk.
      return { sql: `d.id IN (SELECT g.id FROM documents g WHERE grk_glob(?, ${c.absolute ? "g.source" : pathOf("g")}))`, params: [c.glob] };
    case "class":
      return { sql: "d.source_class = ?", params: [c.sourceClass] };
    case "ext":
      return { sql: "json_extract(d.metadata, '$.ext') = ?", params: [c.ext] };
    case "ingested":
      return { sql: `d.ingested_at ${c.op} ?`, params: [c.at] };
    case "tag":
      return { sql: `(${metadataContains("tags")} OR ${metadataContains("tag")})`, params: [c.value, c.value] };
    case "metadata":
      return { sql: metadataContains(c.field), params: [c.value] };
    case "symbol":
      return { sql: "EXISTS (SELECT 1 FROM json_each(c.metadata, '$.symbol_keys') WHERE json_each.value = ?)", params: [c.name] };
  }
}

/** A metadata field equals the value, or (when it is a list) contains it. */
function metadataContains(field: string): string {
  if (!FIELD.test(field)) throw new Error(`unchecked metadata field name reached the SQL compiler: ${JSON.stringify(field)}`);
  return `EXISTS (SELECT 1 FROM json_each(d.metadata, '$."${field}"') WHERE json_each.value = ?)`;
}
