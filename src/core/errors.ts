/**
 * One catalogue of error codes. Every error groundkit raises on purpose is a
 * `GroundkitError` carrying one of these codes, so CLI, REST and MCP can map
 * it to an exit code, an HTTP status or a JSON-RPC code without parsing text.
 *
 * @example
 *   throw new GroundkitError("QUERY_EMPTY", "The query is empty.");
 */

export interface ErrorSpec {
  /** HTTP status used by the REST surface. */
  readonly http: number;
  /** A short hint telling the user what to do next. */
  readonly hint: string;
}

export const ERROR_CATALOGUE = {
  // usage / input
  USAGE: { http: 400, hint: "Run `grk --help` for usage." },
  INVALID_ARGUMENT: { http: 400, hint: "Check the value against the command's help text." },
  QUERY_EMPTY: { http: 400, hint: "Type at least one word to search for." },
  QUERY_TOO_LONG: { http: 400, hint: "Shorten the query to at most 4096 characters." },
  INVALID_CITATION: { http: 422, hint: "Pass a citation object as printed by `grk search --json`." },
  INVALID_COLLECTION_NAME: {
    http: 400,
    hint: "Use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
  },
  INVALID_CONFIG: { http: 400, hint: "Fix the configuration file or flag named in the message." },
  INVALID_FILTER: { http: 400, hint: "Filters look like `path=guides/**`, `class=text`, `ext=md`, `tag=x`." },

  // not found
  COLLECTION_NOT_FOUND: { http: 404, hint: "Run `grk collections` to list collections, or ingest first." },
  CHUNK_NOT_FOUND: { http: 404, hint: "Chunk ids change only when content changes; search again." },
  DOCUMENT_NOT_FOUND: { http: 404, hint: "Run `grk status` to see what is indexed." },
  SOURCE_NOT_FOUND: { http: 404, hint: "Check the path; it must exist and be readable." },

  // ingest refusals (per file; the run goes on)
  FILE_TOO_LARGE: { http: 413, hint: "Raise the cap with --max-file-size if the file is meant to be indexed." },
  FILE_BINARY: { http: 415, hint: "Only text, Markdown, PDF and HTML files are indexed." },
  FILE_NOT_UTF8: { http: 415, hint: "Re-save the file as UTF-8." },
  FILE_UNREADABLE: { http: 403, hint: "Check the file's permissions." },
  PATH_ESCAPES_BASE: { http: 403, hint: "Only files under the base directory are indexed; symlinks may not leave it." },
  EXTRACTION_FAILED: { http: 422, hint: "The file could not be parsed; check it opens in another viewer." },
  EXTRACTION_LIMIT: {
    http: 422,
    hint: "Extracting the file needed more time, memory, output or nesting than allowed; raise the `extraction` limits in groundkit.config.json if it is meant to be indexed.",
  },
  UNSUPPORTED_TYPE: { http: 415, hint: "Supported: .md .markdown .txt .pdf .html .htm, and http(s) URLs." },

  // network
  URL_REFUSED: { http: 400, hint: "Only http(s) URLs without credentials are accepted." },
  SSRF_BLOCKED: {
    http: 403,
    hint: "The host resolves to a private or reserved address; pass --allow-private-network for intranet hosts.",
  },
  REDIRECT_REFUSED: { http: 502, hint: "Ingest the redirect's target URL directly." },
  FETCH_FAILED: { http: 502, hint: "Check the URL is reachable and try again." },
  FETCH_TIMEOUT: { http: 504, hint: "The server was too slow; try again or raise --timeout." },
  BODY_TOO_LARGE: { http: 413, hint: "Raise the cap with --max-file-size if the page is meant to be indexed." },

  // store
  STORE_FOREIGN: { http: 409, hint: "The file is not a groundkit index; point --index-dir elsewhere." },
  STORE_NEWER: { http: 409, hint: "Upgrade groundkit: this index was written by a newer version." },
  STORE_CORRUPT: { http: 500, hint: "Delete the collection and ingest again." },
  STORE_BUSY: { http: 503, hint: "Another process holds the index; retry shortly." },
  COLLECTION_BUSY: {
    http: 409,
    hint: "Another writer (ingest, reembed or delete) is changing this collection; retry when it is done, or wait longer with --lock-timeout SECONDS.",
  },
  INDEX_DIR_UNUSABLE: {
    http: 500,
    hint: "Point --index-dir (or the config file's index_dir) at a directory you can create and write.",
  },
  EMBEDDING_MISMATCH: { http: 409, hint: "Use the collection's embedding identity, or `grk reembed`." },
  NO_VECTORS: { http: 409, hint: "Run `grk ingest <path> --dense` to add vectors to this collection." },

  // service
  UNAUTHORIZED: { http: 401, hint: "Send `Authorization: Bearer <GROUNDKIT_API_TOKEN>`." },
  FORBIDDEN: { http: 403, hint: "The request's Host or Origin is not allowed." },
  PAYLOAD_TOO_LARGE: { http: 413, hint: "Send a smaller request body." },
  OVERLOADED: { http: 503, hint: "The server is at capacity; retry after the Retry-After delay." },
  TIMEOUT: { http: 504, hint: "The request took too long; narrow it and retry." },
  PORT_IN_USE: {
    http: 500,
    hint: "Another process listens there (perhaps another `grk serve`): stop it, or pass --port <n> (0 picks a free one).",
  },
  ROUTE_NOT_FOUND: { http: 404, hint: "See GET /openapi.json for the routes this server offers." },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, hint: "Send the request body as application/json." },

  INTERNAL: { http: 500, hint: "This is a bug; rerun with --debug and report it." },

  // eval harness
  JUDGMENT_INVALID: {
    http: 422,
    hint: "Fix the judgment named in the message: each quote must occur exactly once, verbatim, in its doc.",
  },
  DATASET_INVALID: {
    http: 422,
    hint: "A BEIR dataset is a folder with corpus.jsonl, queries.jsonl and qrels/<split>.tsv (with a header row).",
  },
  REPORT_INVALID: { http: 422, hint: "Pass a JSON report written by `grk eval --output` (schema_version 1)." },

  // embedding and rerank providers
  EMBEDDING_FAILED: {
    http: 502,
    hint: "Check that the embedding provider named in the message is running, reachable and configured as documented.",
  },
  INSTALL_INCOMPLETE: {
    http: 500,
    hint: "Run `npm rebuild better-sqlite3` in the folder groundkit is installed in (add -g for a global install); it needs its install script, so never install groundkit with --ignore-scripts.",
  },
  OPTIONAL_PACKAGE_MISSING: {
    http: 501,
    hint: "Run the install command named in the message (then restart a running server), or use a feature that needs no optional package: BM25 search (mode=bm25) needs none.",
  },
  RERANK_FAILED: {
    http: 502,
    hint: "Check that the reranker named in the message is running, reachable and configured as documented.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The base class for every deliberate groundkit error. */
export class GroundkitError extends Error {
  readonly code: ErrorCode;
  readonly detail: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, detail?: Record<string, unknown>, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "GroundkitError";
    this.code = code;
    this.detail = detail;
  }

  get hint(): string {
    return ERROR_CATALOGUE[this.code].hint;
  }

  get httpStatus(): number {
    return ERROR_CATALOGUE[this.code].http;
  }

  /** JSON-RPC error code: invalid params for client errors, internal error otherwise. */
  get jsonRpcCode(): number {
    return this.httpStatus < 500 ? -32602 : -32603;
  }

  toJSON(): { code: ErrorCode; message: string; hint: string } {
    return { code: this.code, message: this.message, hint: this.hint };
  }
}

/** Normalize any thrown value into a GroundkitError (unknown values become INTERNAL). */
export function toGroundkitError(err: unknown): GroundkitError {
  if (err instanceof GroundkitError) return err;
  const code = (err as { code?: unknown } | null)?.code;
  if (code === "SQLITE_BUSY" || code === "SQLITE_LOCKED") {
    return new GroundkitError("STORE_BUSY", "The index is busy.", undefined, { cause: err });
  }
  if (code === "SQLITE_CORRUPT" || code === "SQLITE_NOTADB") {
    return new GroundkitError("STORE_CORRUPT", "The index file is damaged.", undefined, { cause: err });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new GroundkitError("INTERNAL", `Unexpected error: ${message}`, undefined, { cause: err });
}
