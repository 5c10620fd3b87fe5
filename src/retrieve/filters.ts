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

function invalid(message: string, details?: Record<string, unknown>): GroundkitError {
  return new GroundkitError("INVALID_FILTER", message, details);
}

/** Whether `err` is {@link checkFilterKeys}' refusal (a search across collections tolerates it in some of them). */
export function isUnknownFilterKey(err: unknown): boolean {
  return err instanceof GroundkitError && err.code === "INVALID_FILTER" && typeof err.detail?.unknown_filter_key === "string";
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

/** Filter keys every collection has; any other key names a front-matter field. */
export const BUILT_IN_FILTER_KEYS = ["path", "class", "ext", "tag", "lang", "symbol", "ingested"] as const;

/** Document metadata the ingest records itself: filterable, but not a front-matter field to suggest. */
const INTERNAL_FIELDS = new Set(["rel_path", "ext", "chunking", "id_key", "moved_from", ...BUILT_IN_FILTER_KEYS]);

/**
 * Refuse a filter whose key is neither built in nor a field any document of the collection has: it
 * could only ever match nothing. The message names the keys that exist and the nearest one.
 * `fields` is asked for only when a filter names a field.
 *
 * @throws GroundkitError INVALID_FILTER
 */
export async function checkFilterKeys(filters: readonly Filter[], fields: () => Promise<readonly string[]>): Promise<void> {
  const named = filters.filter((f) => !(BUILT_IN_FILTER_KEYS as readonly string[]).includes(f.key));
  if (named.length === 0) return;
  const present = await fields();
  const unknown = named.find((f) => !present.includes(f.key));
  if (!unknown) return;
  const frontMatter = [...present].filter((k) => !INTERNAL_FIELDS.has(k)).sort();
  const near = nearestKey(unknown.key, [...BUILT_IN_FILTER_KEYS, ...frontMatter]);
  throw invalid(
    `Unknown filter key '${unknown.key}': no document of this collection has it, so nothing could match.` +
      `${near ? ` Did you mean '${near}'?` : ""} Keys: ${BUILT_IN_FILTER_KEYS.join(", ")} (built in)` +
      (frontMatter.length > 0 ? `; ${frontMatter.slice(0, 30).join(", ")}${frontMatter.length > 30 ? ", …" : ""} (front matter).` : "; no front-matter fields."),
    { unknown_filter_key: unknown.key, ...(near ? { did_you_mean: near } : {}) },
  );
}

/** The known key closest to `key` by edit distance, when close enough to be a typo (at most 2 edits, under half its length). */
function nearestKey(key: string, keys: readonly string[]): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const k of keys) {
    const d = editDistance(key, k);
    if (d <= 2 && d < Math.max(key.length, k.length) / 2 && (!best || d < best.d)) best = { key: k, d };
  }
  return best?.key;
}

/** Levenshtein distance (keys are at most 64 characters). */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return prev[b.length]!;
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
