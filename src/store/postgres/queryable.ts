/**
 * What the PostgreSQL engine modules need of a connection: a `pg.Pool`, a
 * `pg.PoolClient` or a `pg.Client` all fit. A function that must run several
 * statements on one connection (a transaction) says so by asking for a
 * client, never a pool.
 */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Rows of one query, typed by the caller (the SQL's column list is the contract). */
export async function rowsOf<R>(q: Queryable, text: string, values?: unknown[]): Promise<R[]> {
  return (await q.query(text, values)).rows as R[];
}
