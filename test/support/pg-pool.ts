/**
 * A `pg.Pool` for tests and benchmarks that talk to a collection's schema
 * directly (the package ships no types and the suite adds none): only the
 * members they use, typed.
 */
import { createRequire } from "node:module";
import { quoteIdent } from "../../src/store/postgres/open-schema.js";

export interface TestPoolClient {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  release(): void;
}

export interface TestPool {
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[] }>;
  connect(): Promise<TestPoolClient>;
  end(): Promise<void>;
}

/** A pool on `url` whose sessions work in `schema` (unquoted), as the store's do. */
export function openPool(url: string, schema?: string, max = 4): TestPool {
  const pg = createRequire(import.meta.url)("pg") as {
    Pool: new (o: Record<string, unknown>) => TestPool;
    types: { setTypeParser(oid: number, parse: (v: string) => unknown): void };
  };
  // bigint as a number, as the store reads it (ids and offsets stay below 2^53).
  pg.types.setTypeParser(20, Number);
  const options = schema === undefined ? "-c jit=off" : `-c search_path=${quoteIdent(schema)} -c jit=off`;
  return new pg.Pool({ connectionString: url, max, options });
}
