/**
 * Which store the reliability tools (fuzz, torture) run against: the default
 * SQLite files in each index dir, or a throwaway PostgreSQL cluster the tool
 * starts itself (test/support/postgres-server.ts: initdb in a temp dir,
 * 127.0.0.1, a free port, deleted at the end). On PostgreSQL every index dir a
 * tool makes gets its own schema prefix, so clean reference runs, killed runs
 * and fuzz worlds never share a collection.
 */
import { writeFileSync } from "node:fs";
import type { PostgresStoreConfig } from "../src/store/postgres/connection-settings.js";
import { startPostgres, type TestPostgres } from "../test/support/postgres-server.js";

export const STORE_KINDS = ["sqlite", "postgres"] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

/** The environment variable the tools' PostgreSQL configs name (set in this process and inherited by the CLI children). */
const URL_ENV = "GRK_TOOLS_PG_URL";

/** A store the tools write collections into. */
export interface StoreTarget {
  kind: StoreKind;
  /** The server's URL (PostgreSQL only; trust auth on loopback, no password). */
  url?: string | undefined;
  /** The `store` config section for index `tag` (undefined on SQLite: the index dir's files). */
  configFor(tag: string): PostgresStoreConfig | undefined;
  stop(): Promise<void>;
}

/** A schema prefix from any tag: PostgreSQL's store wants 1-30 of a-z 0-9 _. */
function schemaPrefix(tag: string): string {
  const clean = tag.toLowerCase().replace(/[^a-z0-9_]/g, "_");
  return `t_${clean}`.slice(0, 30);
}

/** Start the target (PostgreSQL: a throwaway cluster). */
export async function startStoreTarget(kind: StoreKind): Promise<StoreTarget> {
  if (kind === "sqlite") return { kind, configFor: () => undefined, stop: async () => {} };
  const pg: TestPostgres = await startPostgres();
  process.env[URL_ENV] = pg.url;
  return {
    kind,
    url: pg.url,
    configFor: (tag) => ({ kind: "postgres", url_env: URL_ENV, schema: schemaPrefix(tag) }),
    stop: () => pg.stop(),
  };
}

/** Write a config file naming the target's store for index `tag` (an empty config on SQLite); returns its path. */
export function writeToolConfig(target: StoreTarget, tag: string, file: string): string {
  const store = target.configFor(tag);
  writeFileSync(file, JSON.stringify(store ? { store } : {}));
  return file;
}

/** Parse a `--store` value (exits 2 with usage when unknown). */
export function parseStoreKind(value: string | undefined, usage: (message: string) => never): StoreKind {
  if (value === "sqlite" || value === "postgres") return value;
  return usage(`--store needs sqlite or postgres (got ${JSON.stringify(value ?? "")})`);
}
