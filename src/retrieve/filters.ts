/**
 * Search filters: parsed and validated here into the store's typed filter
 * (store/store.ts `ChunkFilter`), which each backend compiles into its own
 * query (SQLite: store/sqlite/filter-sql.ts), so filters apply inside the
 * query on every mode rather than by trimming a short result list.
 *
 * Syntax (repeat `--filter` to AND them):
 *   path=<glob>          document path (relative to its base dir; URL for snapshots) matches the glob
 *                        (core/glob.ts: * ** ? [..] {a,b}; extglobs and anything else are refused);
 *                        an absolute glob (`/srv/docs/**`) matches the absolute source path instead
 *   path^=<prefix>       document path (an absolute prefix: the absolute source) starts with the prefix
 *   class=<text|extracted|snapshot>
 *   ext=<md|pdf|...>     file extension (with or without the dot)
 *   tag=<value>          Markdown front matter `tags` (or `tag`) contains the value
 *   lang=<language>      a code or configuration file's language (python, typescript, go, json, …;
 *                        `py`, `ts`, `js`, … are accepted too)
 *   symbol=<name>        a code chunk holds, or is part of, a definition of that name: qualified
 *                        (`Collection.search`) or its last parts (`search`); case-insensitive
 *   <field>=<value>      any other front-matter field (e.g. title, author) equals / contains the value
 *   ingested>=<date>     ingested on or after an ISO date or timestamp (also >, <=, <)
 *
 * Cost: at most MAX_FILTERS filters; a path glob is validated here (length and
 * brace expansion bounded by GLOB_LIMITS), then matched once per document (not
 * per chunk) under the statement's step budget (store/sqlite/functions.ts).
 */
import { isAbsolute } from "node:path";
import { GroundkitError } from "../core/errors.js";
import { SOURCE_CLASSES, type SourceClass } from "../core/contracts.js";
import { compileGlob } from "../core/glob.js";
import { canonicalLanguage } from "../core/code-languages.js";
import type { ChunkFilter, FilterClause } from "../store/store.js";

export interface Filter {
  key: string;
  op: "=" | "^=" | ">=" | ">" | "<=" | "<";
  value: string;
}

/** Filters one search may carry (the REST/MCP schema allows the same). */
export const MAX_FILTERS = 32;

const FILTER = /^([A-Za-z][A-Za-z0-9_-]{0,63})\s*(\^=|>=|<=|=|>|<)\s*(.*)$/s;

function invalid(message: string): GroundkitError {
  return new GroundkitError("INVALID_FILTER", message);
}

/** Parse `key=value` filter strings; throws INVALID_FILTER with a clear message. */
export function parseFilters(raw: readonly string[] | undefined): Filter[] {
  if ((raw?.length ?? 0) > MAX_FILTERS) throw invalid(`At most ${MAX_FILTERS} filters per search; got ${raw!.length}.`);
  return (raw ?? []).map((text) => {
    const m = FILTER.exec(text.trim());
    if (!m) throw invalid(`Cannot parse filter '${text.slice(0, 100)}': expected key=value (e.g. path=guides/**, tag=security).`);
    const key = m[1]!.toLowerCase();
    const op = m[2] as Filter["op"];
    const value = m[3]!.trim();
    if (value === "") throw invalid(`Filter '${key}' has an empty value.`);
    if (value.length > 1024) throw invalid(`Filter '${key}' value is longer than 1024 characters.`);
    const isDate = key === "ingested";
    const isRange = op !== "=" && op !== "^=";
    if (isDate && !isRange) throw invalid(`Filter 'ingested' takes >=, >, <= or < with a date.`);
    if (!isDate && isRange) throw invalid(`Filter '${key}' takes '=' (only 'ingested' compares dates).`);
    if (op === "^=" && key !== "path") throw invalid(`Only 'path' takes the prefix operator '^='.`);
    if (key === "class" && !(SOURCE_CLASSES as readonly string[]).includes(value)) {
      throw invalid(`Filter 'class' must be one of ${SOURCE_CLASSES.join(", ")}; got '${value}'.`);
    }
    if (isDate && Number.isNaN(Date.parse(value))) throw invalid(`Filter 'ingested' needs an ISO date; got '${value}'.`);
    // Refuse a bad glob here, before any query runs.
    if (key === "path" && op === "=") compileGlob(value, { dot: true, errorCode: "INVALID_FILTER" });
    return { key, op, value };
  });
}

/** Turn parsed filters into the store's typed filter (AND); undefined when there are none. */
export function toChunkFilter(filters: readonly Filter[]): ChunkFilter | undefined {
  if (filters.length === 0) return undefined;
  return { clauses: filters.map(toClause) };
}

function toClause(f: Filter): FilterClause {
  switch (f.key) {
    case "path": {
      // An absolute path (as the CLI prints sources outside the working directory) is matched against the source itself.
      const absolute = isAbsolute(f.value) ? { absolute: true } : {};
      return f.op === "^=" ? { kind: "path_prefix", prefix: f.value, ...absolute } : { kind: "path_glob", glob: f.value, ...absolute };
    }
    case "class":
      return { kind: "class", sourceClass: f.value as SourceClass };
    case "ext":
      return { kind: "ext", ext: f.value.startsWith(".") ? f.value.toLowerCase() : `.${f.value.toLowerCase()}` };
    case "ingested":
      return { kind: "ingested", op: f.op as "<" | "<=" | ">" | ">=", at: new Date(Date.parse(f.value)).toISOString() };
    case "tag":
      return { kind: "tag", value: f.value };
    case "lang":
      // Recorded on the document's metadata by the code loader; front matter may hold a `lang` too.
      return { kind: "metadata", field: "lang", value: canonicalLanguage(f.value) };
    case "symbol":
      return { kind: "symbol", name: f.value.toLowerCase() };
    default:
      return { kind: "metadata", field: f.key, value: f.value };
  }
}
