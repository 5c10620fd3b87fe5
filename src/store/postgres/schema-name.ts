/**
 * The PostgreSQL schema of a collection: `<prefix>.<name>`. PostgreSQL cuts
 * identifiers at 63 bytes without an error, so two long names could share one
 * schema and read each other's documents (issue 25 #9); a name whose schema
 * does not fit is refused instead, with the limit for this prefix.
 */
import { GroundkitError } from "../../core/errors.js";
import { DEFAULT_SCHEMA, type PostgresStoreConfig } from "./connection-settings.js";

/** NAMEDATALEN - 1: the longest identifier PostgreSQL keeps whole. */
export const MAX_IDENTIFIER_BYTES = 63;

/** The schema prefix (with its '.') that every collection schema of this config starts with. */
export function schemaPrefix(config: PostgresStoreConfig): string {
  return `${config.schema ?? DEFAULT_SCHEMA}.`;
}

/** The schema of collection `name`; INVALID_COLLECTION_NAME when PostgreSQL would cut it. */
export function collectionSchema(config: PostgresStoreConfig, name: string): string {
  const prefix = schemaPrefix(config);
  const schema = `${prefix}${name}`;
  if (Buffer.byteLength(schema, "utf8") > MAX_IDENTIFIER_BYTES) {
    const max = MAX_IDENTIFIER_BYTES - Buffer.byteLength(prefix, "utf8");
    throw new GroundkitError(
      "INVALID_COLLECTION_NAME",
      `Collection name '${name}' is too long for this PostgreSQL store: its schema "${schema}" is over ${MAX_IDENTIFIER_BYTES} bytes.`,
      { collection: name, max_length: max },
      { hint: `On PostgreSQL with schema prefix '${prefix.slice(0, -1)}', a collection name has at most ${max} characters (PostgreSQL cuts identifiers at ${MAX_IDENTIFIER_BYTES} bytes).` },
    );
  }
  return schema;
}
