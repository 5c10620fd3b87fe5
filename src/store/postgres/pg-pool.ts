/**
 * The PostgreSQL store's connections: a `pg` pool whose queries run
 * concurrently on the event loop (nothing blocks it), and clients taken from
 * it for a transaction or a held advisory lock. Every failure becomes a typed
 * error here: the server gone or unreachable is STORE_UNAVAILABLE, a missing
 * schema COLLECTION_NOT_FOUND, a statement the server refused a
 * {@link PgStatementError} with its SQLSTATE.
 *
 * Every wait is bounded on this side too (`query_timeout`): a server that
 * stops answering (a stalled host, backends under SIGSTOP) fails the query
 * after the statement timeout plus a margin, and its connection is dropped.
 * `pg` is imported when the first pool is made, so a SQLite command never
 * loads it.
 */
import { GroundkitError } from "../../core/errors.js";
import type { PoolSettings } from "./connection-settings.js";
import type { NamedStatement } from "./queryable.js";

/** A query's result rows (objects by column name, or arrays with `rowMode: "array"`). */
export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

export interface QueryOptions {
  rowMode?: "array" | undefined;
  /** Replaces the default bound for a statement that may run longer than the statement timeout (an index build that lifted it with SET LOCAL). */
  waitMs?: number | undefined;
}

/** Where statements run: the pool (any free connection) or one client (a transaction's). */
export interface PgRunner {
  query<R = Record<string, unknown>>(sql: string | NamedStatement, params?: unknown[], opts?: QueryOptions): Promise<QueryResult<R>>;
}

/** One statement of {@link runAll}. */
export interface Statement {
  sql: string;
  params?: unknown[] | undefined;
}

/** Run statements in order on `runner`; the first that fails stops the rest. */
export async function runAll(runner: PgRunner, statements: readonly Statement[], waitMs?: number): Promise<void> {
  for (const s of statements) await runner.query(s.sql, s.params ?? [], { waitMs });
}

/** An error the server raised for a statement, with its SQLSTATE. */
export class PgStatementError extends Error {
  constructor(
    message: string,
    readonly sqlState: string | undefined,
  ) {
    super(message);
  }
}

/** The parts of `pg` used here (the package ships no types of its own). */
interface PgQueryConfig {
  name?: string | undefined;
  text: string;
  values: unknown[];
  rowMode?: "array" | undefined;
  query_timeout?: number | undefined;
}
interface PgRawResult {
  rows: unknown[];
  rowCount: number | null;
}
interface PgClientRaw {
  query(config: PgQueryConfig): Promise<PgRawResult>;
  release(destroy?: boolean | Error): void;
  on(event: "error", listener: (err: Error) => void): void;
  removeListener(event: "error", listener: (err: Error) => void): void;
}
interface PgPoolRaw {
  query(config: PgQueryConfig): Promise<PgRawResult>;
  connect(): Promise<PgClientRaw>;
  end(): Promise<void>;
  on(event: "error", listener: (err: Error) => void): void;
}
interface PgModule {
  Pool: new (config: Record<string, unknown>) => PgPoolRaw;
  types: { getTypeParser(oid: number, format?: string): (value: string) => unknown };
}

/** SQLSTATE classes and client errors that mean the server is gone or unreachable, not that the statement was wrong. */
const UNAVAILABLE_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EHOSTUNREACH", "EPIPE", "57P01", "57P02", "57P03", "53300"]);

/** Insufficient privilege (42501), and a login refused (28000, 28P01): what the server's grants decide. */
const PERMISSION_CODES = new Set(["42501", "28000", "28P01"]);

/** int8 (count(*), ids) as numbers: every id and count here stays below 2^53. */
const INT8_OID = 20;

/** A specifier in a variable: `pg` ships no types, and {@link PgModule} says what is used of it. */
const PG_MODULE = "pg";

let pgModule: Promise<PgModule> | undefined;

function loadPg(): Promise<PgModule> {
  pgModule ??= (import(PG_MODULE) as Promise<{ default?: unknown }>).then((m) => (m.default ?? m) as PgModule);
  return pgModule;
}

interface RawError {
  message?: string;
  code?: string;
}

/** Whether an error means the server is unavailable (the connection it came on is not to be reused). */
function isUnavailable(err: RawError): boolean {
  if (err.code && (UNAVAILABLE_CODES.has(err.code) || err.code.startsWith("08"))) return true;
  return /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
    err.message ?? "",
  );
}

export class PgPool implements PgRunner {
  private closed = false;

  private constructor(
    private readonly pool: PgPoolRaw,
    private readonly settings: PoolSettings,
    /** The quoted schema the connections work in (pg_catalog for a pool that only lists). */
    private readonly searchPath: string,
  ) {}

  /**
   * A pool whose connections work in `searchPath` (a quoted schema).
   * `settings.target` names the server for messages (host, port, database; never the password).
   */
  static async create(settings: PoolSettings, searchPath: string): Promise<PgPool> {
    const pg = await loadPg();
    const pool = new pg.Pool({
      ...settings.pool,
      // Every connection works in the collection's schema, set at connect time (names have no spaces to escape).
      // JIT off: before autovacuum has analyzed new tables the planner overestimates the short BM25
      // statements and spent ~0.5 s compiling each (measured: 716 ms -> 3 ms for the df statement).
      // Generic plans: the named statements (the hot reads, queryable.ts) are then never planned again (a
      // custom plan per call cost 0.3-0.5 ms of planning for 0.2 ms of execution, BM25 search, EXPLAIN
      // ANALYZE; in auto mode PostgreSQL kept choosing custom plans). It also applies to the unnamed
      // statements with parameters, which are planned per call either way, only without their values:
      // they are key lookups and scans whose plan does not turn on a value; the one that does (an HNSW
      // search's LIMIT) sets auto for its transaction (vector-engine.ts, hnswSettings).
      options: `-c search_path=${searchPath} -c jit=off -c plan_cache_mode=force_generic_plan`,
      query_timeout: settings.waitTimeoutMs,
      types: { getTypeParser: (oid: number, format?: string) => (oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) },
    });
    // An idle client whose server went away emits 'error'; without a listener it would end the process.
    pool.on("error", () => {});
    return new PgPool(pool, settings, searchPath);
  }

  get target(): string {
    return this.settings.target;
  }

  /** Run one statement on any free connection. */
  async query<R = Record<string, unknown>>(sql: string | NamedStatement, params: unknown[] = [], opts: QueryOptions = {}): Promise<QueryResult<R>> {
    this.checkOpen();
    try {
      const res = await this.pool.query(queryConfig(sql, params, opts));
      return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 };
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** A connection of its own (a transaction, a held lock) until {@link PgClient.release}. */
  async connect(): Promise<PgClient> {
    this.checkOpen();
    try {
      return new PgClient(await this.pool.connect(), this);
    } catch (err) {
      throw this.translate(err);
    }
  }

  /** Whether the server answers `SELECT 1` within `waitMs` (a readiness probe); the reason when it does not. */
  async ping(waitMs: number): Promise<{ ok: true } | { ok: false; reason: string }> {
    try {
      await this.query("SELECT 1", [], { waitMs });
      return { ok: true };
    } catch (err) {
      return { ok: false, reason: (err as Error).message };
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    try {
      await this.pool.end();
    } catch {
      // Closing anyway.
    }
  }

  private checkOpen(): void {
    if (this.closed) throw new GroundkitError("INTERNAL", "The PostgreSQL store is closed.");
  }

  /** The typed error for what `pg` threw. */
  translate(err: unknown): Error {
    if (err instanceof GroundkitError || err instanceof PgStatementError) return err;
    const raw = (err ?? {}) as RawError;
    const target = this.settings.target;
    if (/Query read timeout/i.test(raw.message ?? "")) {
      return new GroundkitError("STORE_UNAVAILABLE", `PostgreSQL at ${target} did not answer within ${Math.round(this.settings.waitTimeoutMs / 100) / 10} s.`);
    }
    if (isUnavailable(raw)) {
      return new GroundkitError("STORE_UNAVAILABLE", `PostgreSQL at ${target} is unavailable (${raw.message ?? String(err)}).`, undefined, { cause: err });
    }
    if (raw.code === "57014") {
      return new GroundkitError(
        "STORE_UNAVAILABLE",
        `PostgreSQL at ${target} cancelled a statement that ran past the statement timeout (${this.settings.statementTimeoutMs} ms).`,
      );
    }
    if (raw.code !== undefined && PERMISSION_CODES.has(raw.code)) return this.permissionDenied(raw);
    if (raw.code === "42P01" || raw.code === "3F000") {
      return new GroundkitError("COLLECTION_NOT_FOUND", `The collection's tables are gone from PostgreSQL at ${target} (deleted meanwhile?).`);
    }
    return new PgStatementError(raw.message ?? String(err), raw.code);
  }

  /** A privilege or login the server refused: what to grant, and to whom (the role, never the URL). */
  private permissionDenied(raw: RawError): GroundkitError {
    const target = this.settings.target;
    const role = quoteRole(this.settings.role);
    if (raw.code!.startsWith("28")) {
      return new GroundkitError("STORE_PERMISSION_DENIED", `PostgreSQL at ${target} refused the login of role ${role} (${raw.message ?? raw.code}).`, undefined, {
        hint: "Check the user and password in the store's URL variable (GROUNDKIT_PG_URL unless the config names another) and the server's pg_hba.conf.",
      });
    }
    const schema = this.searchPath === "pg_catalog" ? '"<schema>"' : this.searchPath;
    return new GroundkitError("STORE_PERMISSION_DENIED", `PostgreSQL at ${target} denied role ${role}: ${raw.message ?? raw.code}.`, undefined, {
      hint:
        `As the owner of schema ${schema} (or a superuser) run: GRANT USAGE, CREATE ON SCHEMA ${schema} TO ${role}; ` +
        `GRANT SELECT, INSERT, UPDATE, DELETE, TRUNCATE ON ALL TABLES IN SCHEMA ${schema} TO ${role}; ` +
        `GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${role} ` +
        `(readers need only USAGE and SELECT; creating collections needs CREATE on the database).`,
    });
  }
}

/** A role name as SQL would take it (quoted unless plain). */
function quoteRole(role: string): string {
  if (role === "") return "<the URL's role>";
  return /^[a-z_][a-z0-9_]*$/.test(role) ? role : `"${role.replace(/"/g, '""')}"`;
}

/** One pooled connection, held until released (a transaction's, or a writer lock's). */
export class PgClient implements PgRunner {
  /** The connection failed in a way that makes it unfit to reuse. */
  private broken = false;
  private released = false;
  /**
   * The pool listens for a connection's 'error' only while it is idle: one lost
   * while held between statements (a transaction awaiting its caller, a held
   * writer lock, a server shut down) would otherwise end the process.
   */
  private readonly onLost = (): void => {
    this.broken = true;
  };

  constructor(
    private readonly client: PgClientRaw,
    private readonly pool: PgPool,
  ) {
    client.on("error", this.onLost);
  }

  async query<R = Record<string, unknown>>(sql: string | NamedStatement, params: unknown[] = [], opts: QueryOptions = {}): Promise<QueryResult<R>> {
    if (this.released) throw new GroundkitError("INTERNAL", "A PostgreSQL connection was used after it was given back.");
    // A connection that already failed (a timeout, a reset) is not asked again: a ROLLBACK or an unlock
    // sent on it would wait out a second bound before failing the same way (issue 25 #18).
    if (this.broken) throw new GroundkitError("STORE_UNAVAILABLE", `PostgreSQL at ${this.pool.target} stopped answering on this connection.`);
    try {
      const res = await this.client.query(queryConfig(sql, params, opts));
      return { rows: res.rows as R[], rowCount: res.rowCount ?? 0 };
    } catch (err) {
      if (isUnavailable((err ?? {}) as RawError)) this.broken = true;
      throw this.pool.translate(err);
    }
  }

  /** Give the connection back (closing it when it failed, or when asked: that ends its session and what it held). */
  release(destroy = false): void {
    if (this.released) return;
    this.released = true;
    try {
      this.client.removeListener("error", this.onLost);
      this.client.release(destroy || this.broken);
    } catch {
      // Already gone.
    }
  }
}

function queryConfig(sql: string | NamedStatement, params: unknown[], opts: QueryOptions): PgQueryConfig {
  const config: PgQueryConfig = typeof sql === "string" ? { text: sql, values: params } : { name: sql.name, text: sql.text, values: params };
  const rowMode = opts.rowMode ?? (typeof sql === "string" ? undefined : sql.rowMode);
  if (rowMode) config.rowMode = rowMode;
  if (opts.waitMs !== undefined) config.query_timeout = opts.waitMs;
  return config;
}
