/**
 * What the PostgreSQL engine modules need of a connection: a `pg.Pool`, a
 * `pg.PoolClient` or a `pg.Client` all fit. A function that must run several
 * statements on one connection (a transaction) says so by asking for a
 * client, never a pool.
 */
export interface Queryable {
  query(text: string | NamedStatement, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/**
 * A statement the server keeps parsed and planned per connection under
 * `name` (a hot read: it skips 0.3-1 ms of planning per call). The text must
 * be one statement, and one name always stands for one text.
 */
export interface NamedStatement {
  name: string;
  text: string;
  /** Rows as arrays in column order (cheaper to read than objects keyed by column). */
  rowMode?: "array" | undefined;
}

/** Rows of one query, typed by the caller (the SQL's column list is the contract). */
export async function rowsOf<R>(q: Queryable, text: string | NamedStatement, values?: unknown[]): Promise<R[]> {
  return (await q.query(text, values)).rows as R[];
}
