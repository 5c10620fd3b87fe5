/**
 * Read replicas of a PostgreSQL store: the config file names, per replica,
 * the environment variable holding its URL (never the URL itself, as for the
 * primary), and each is resolved exactly like the primary's URL, with the
 * primary's pool size, timeouts and sslmode.
 *
 * @example
 *   { "store": { "kind": "postgres", "url_env": "GROUNDKIT_PG_URL",
 *                "replicas": [{ "url_env": "GROUNDKIT_PG_REPLICA_A" }, { "url_env": "GROUNDKIT_PG_REPLICA_B" }] } }
 */
import { GroundkitError } from "../../core/errors.js";
import { DEFAULT_URL_ENV, resolvePoolSettings, type PoolSettings, type PostgresStoreConfig } from "./connection-settings.js";

/** A replica's resolved connection settings; `name` is its variable (messages and status name it so). */
export interface ReplicaSettings extends PoolSettings {
  name: string;
}

/** Resolve every replica of a store config (none: []). Two entries naming one variable, or the primary's, are refused. */
export function resolveReplicaSettings(
  config: PostgresStoreConfig,
  env: NodeJS.ProcessEnv = process.env,
): ReplicaSettings[] {
  const replicas = config.replicas ?? [];
  const primary = config.url_env ?? DEFAULT_URL_ENV;
  const seen = new Set<string>();
  return replicas.map((r) => {
    if (r.url_env === primary) {
      throw new GroundkitError("INVALID_CONFIG", `store.replicas names ${r.url_env}, the primary's URL variable: a replica needs a URL of its own.`);
    }
    if (seen.has(r.url_env)) throw new GroundkitError("INVALID_CONFIG", `store.replicas names ${r.url_env} twice.`);
    seen.add(r.url_env);
    return { ...resolvePoolSettings({ ...config, url_env: r.url_env }, env), name: r.url_env };
  });
}
