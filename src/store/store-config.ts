/**
 * The `store` section of the config file: which backend holds the
 * collections and how to reach it (docs/postgres.md). Validated here, in the
 * store layer, so that nothing above store/ names a backend (issue 26).
 */
import { z } from "zod";
import { GroundkitError } from "../core/errors.js";
import { formatIssues } from "../core/validation.js";

/** Where collections live: SQLite files in the index dir (the default), or a PostgreSQL server (docs/postgres.md). */
const StoreSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("sqlite") }).strict(),
  z
    .object({
      kind: z.literal("postgres"),
      /** The environment variable holding the connection URL; the URL (and so the password) is never in this file. */
      url_env: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, "must be an environment variable name")
        .optional(),
      /** Collection NAME lives in the PostgreSQL schema `<schema>.NAME`. */
      schema: z
        .string()
        .regex(/^[a-z_][a-z0-9_]{0,29}$/, "must be 1-30 lowercase letters, digits or '_', not starting with a digit")
        .optional(),
      pool_max: z.number().int().min(2).max(100).optional(),
      statement_timeout_ms: z.number().int().min(100).max(3_600_000).optional(),
      sslmode: z.enum(["disable", "require", "verify-ca", "verify-full"]).optional(),
    })
    .strict(),
]);

export type StoreConfig = z.infer<typeof StoreSchema>;

/**
 * Check a config file's `store` section.
 *
 * @throws GroundkitError INVALID_CONFIG naming what is wrong
 */
export function parseStoreConfig(input: unknown): StoreConfig {
  const parsed = StoreSchema.safeParse(input);
  if (!parsed.success) throw new GroundkitError("INVALID_CONFIG", `The config file's "store" section is invalid: ${formatIssues(parsed.error)}.`);
  return parsed.data;
}

/** The kinds of store a config (or a `grk collections copy` end) may name. */
export const STORE_KINDS = ["sqlite", "postgres"] as const;

/**
 * One end of a copy between stores, `KIND:NAME`: the store is the configured
 * one when it is of that kind (its URL variable, schema…), else that kind's
 * defaults. Undefined when the spec is not of that shape.
 */
export function storeEnd(spec: string, configured: StoreConfig | undefined): { store: StoreConfig | undefined; name: string } | undefined {
  const m = /^([a-z]+):(.+)$/.exec(spec);
  const kind = STORE_KINDS.find((k) => k === m?.[1]);
  if (!m || kind === undefined) return undefined;
  const store: StoreConfig | undefined = (configured?.kind ?? "sqlite") === kind ? configured : kind === "postgres" ? { kind } : undefined;
  return { store, name: m[2]! };
}
