/**
 * PostgreSQL cuts identifiers at 63 bytes without an error, so two collection
 * names longer than the schema can hold shared one schema and read each
 * other's documents (issue 25 #9). Such a name is refused with
 * INVALID_COLLECTION_NAME and the limit; the longest name that fits works.
 * A real server on 127.0.0.1 (test/support/postgres-server.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { PostgresStore } from "../src/store/postgres/postgres-store.js";
import { startPostgres, type TestPostgres } from "./support/postgres-server.js";

let pg: TestPostgres;
// Prefix "longnames." is 10 bytes: names of up to 53 characters fit in 63.
const config = { kind: "postgres" as const, url_env: "GRK_LONGNAMES_PG_URL", schema: "longnames" };
const stem = "a".repeat(53);

beforeAll(async () => {
  pg = await startPostgres();
  process.env.GRK_LONGNAMES_PG_URL = pg.url;
}, 120_000);
afterAll(async () => {
  await pg?.stop();
});

async function refusal(name: string): Promise<GroundkitError> {
  const err = await PostgresStore.open(config, name, { create: true }).then(
    async (store) => {
      await store.pool.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  return err as GroundkitError;
}

describe("collection names whose schema PostgreSQL would cut", () => {
  it("are refused with the limit, and create nothing", async () => {
    for (const name of [`${stem}-one`, `${stem}-two`]) {
      const err = await refusal(name);
      expect(err.code).toBe("INVALID_COLLECTION_NAME");
      expect(err.hint).toContain("at most 53 characters");
    }
    expect(await PostgresStore.list(config)).toEqual([]);
  });

  it("the longest name that fits is a collection of its own", async () => {
    const store = await PostgresStore.open(config, stem, { create: true });
    await store.pool.close();
    const shorter = await PostgresStore.open(config, stem.slice(1), { create: true });
    await shorter.pool.close();
    expect(await PostgresStore.list(config)).toEqual([stem.slice(1), stem]);
    await PostgresStore.drop(config, stem);
    expect(await PostgresStore.list(config)).toEqual([stem.slice(1)]);
  });
});
