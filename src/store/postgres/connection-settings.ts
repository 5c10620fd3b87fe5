/**
 * Where a PostgreSQL store connects and how: the connection URL comes only
 * from an environment variable (libpq-style `postgres://user:pass@host:port/db?sslmode=…`),
 * never from the config file, and no message ever shows it whole: errors name
 * the server as host:port/database.
 */
import { GroundkitError } from "../../core/errors.js";

/** The config file's `store` section for PostgreSQL. */
export interface PostgresStoreConfig {
  kind: "postgres";
  /** Environment variable holding the connection URL (default GROUNDKIT_PG_URL). */
  url_env?: string | undefined;
  /** Schema prefix: collection NAME lives in schema `<schema>.NAME` (default groundkit). */
  schema?: string | undefined;
  /** Connections per process (default 4). */
  pool_max?: number | undefined;
  /** Per-statement limit in milliseconds (default 30000). */
  statement_timeout_ms?: number | undefined;
  /** Overrides the URL's sslmode: disable, require, verify-ca, verify-full (default: the URL's, else libpq's prefer as 'disable'). */
  sslmode?: "disable" | "require" | "verify-ca" | "verify-full" | undefined;
  /** Read replicas, each by the environment variable holding its URL (replica-settings.ts). */
  replicas?: Array<{ url_env: string }> | undefined;
}

export const DEFAULT_URL_ENV = "GROUNDKIT_PG_URL";
export const DEFAULT_SCHEMA = "groundkit";

/** What the worker's pg.Pool is built from, plus the bounds the calling thread waits with. */
export interface PoolSettings {
  /** pg.Pool options (holds the password: never log this object). */
  pool: Record<string, unknown>;
  /** host:port/database, for messages. */
  target: string;
  /** The role the URL logs in as (never its password), for the grants a permission error names. */
  role: string;
  statementTimeoutMs: number;
  /** Longest the calling thread blocks on one request. */
  waitTimeoutMs: number;
}

const SSL_MODES = new Set(["disable", "allow", "prefer", "require", "verify-ca", "verify-full", "no-verify"]);

/** Resolve a store config against the environment. */
export function resolvePoolSettings(config: PostgresStoreConfig, env: NodeJS.ProcessEnv = process.env): PoolSettings {
  const urlEnv = config.url_env ?? DEFAULT_URL_ENV;
  const raw = env[urlEnv];
  if (!raw) {
    throw new GroundkitError(
      "INVALID_CONFIG",
      `The store is PostgreSQL but the environment variable ${urlEnv} is not set; set it to a URL such as postgres://user@host:5432/db?sslmode=require.`,
    );
  }
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    // Never echo the value: it may hold a password.
    throw new GroundkitError("INVALID_CONFIG", `${urlEnv} is not a URL (expected postgres://user:password@host:port/database).`);
  }
  if (url.protocol !== "postgres:" && url.protocol !== "postgresql:") {
    throw new GroundkitError("INVALID_CONFIG", `${urlEnv} must be a postgres:// URL (got the scheme ${url.protocol}).`);
  }
  const sslmode = config.sslmode ?? url.searchParams.get("sslmode") ?? undefined;
  if (sslmode !== undefined && !SSL_MODES.has(sslmode)) {
    throw new GroundkitError("INVALID_CONFIG", `Unknown sslmode '${sslmode}' (use disable, require, verify-ca or verify-full).`);
  }
  const poolMax = config.pool_max ?? 4;
  const statementTimeoutMs = config.statement_timeout_ms ?? 30_000;
  const connectTimeoutMs = 10_000;
  const target = `${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname || "/"}`;
  if (config.sslmode !== undefined) url.searchParams.set("sslmode", config.sslmode);
  return {
    pool: {
      connectionString: url.toString(),
      max: poolMax,
      statement_timeout: statementTimeoutMs,
      // A lock wait is bounded too (the writer lock is polled, never waited on by the server).
      lock_timeout: statementTimeoutMs,
      idle_in_transaction_session_timeout: Math.max(60_000, statementTimeoutMs * 2),
      connectionTimeoutMillis: connectTimeoutMs,
      application_name: "groundkit",
    },
    target,
    role: decodeURIComponent(url.username),
    statementTimeoutMs,
    // The server cancels a statement at its timeout; 5 s more for its answer to arrive. The wait for a
    // connection (connect or a free one) is bounded apart by connectionTimeoutMillis, so one call waits
    // at most the statement timeout plus 15 s (docs/postgres.md).
    waitTimeoutMs: statementTimeoutMs + 5_000,
  };
}
