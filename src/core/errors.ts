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
  /** A short hint telling the user what to do next (at a shell: commands and flags). */
  readonly hint: string;
  /**
   * The hint for a caller of the tools (an MCP agent, a REST client), when the
   * shell hint would not help it: what to change in the call (tool and argument
   * names), and what only the server's operator can do.
   */
  readonly toolHint?: string;
}

/** Who reads a hint: someone at the `grk` command line, or a caller of the MCP tools and REST routes. */
export type HintAudience = "cli" | "tool";

export const ERROR_CATALOGUE = {
  // usage / input
  USAGE: {
    http: 400,
    hint: "Run `grk --help` for usage.",
    toolHint: "See the tool's input schema (MCP tools/list, or GET /openapi.json).",
  },
  INVALID_ARGUMENT: {
    http: 400,
    hint: "Check the value against the command's help text.",
    toolHint: "Fix the argument the message names: its type and range are in the tool's input schema (MCP tools/list, or GET /openapi.json).",
  },
  QUERY_EMPTY: { http: 400, hint: "Type at least one word to search for." },
  QUERY_TOO_LONG: { http: 400, hint: "Shorten the query to at most 4096 characters." },
  INVALID_CITATION: {
    http: 422,
    hint: "Pass a citation object as printed by `grk search --json`.",
    toolHint: "Pass a `citation` object exactly as a `search` result returned it.",
  },
  INVALID_COLLECTION_NAME: {
    http: 400,
    hint: "Use 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit.",
  },
  INVALID_CONFIG: {
    http: 400,
    hint: "Fix the configuration file or flag named in the message.",
    toolHint: "The server's configuration lacks what this call needs (the message names it); retry without that option (e.g. rerank=false).",
  },
  INVALID_FILTER: { http: 400, hint: "Filters look like `path=guides/**`, `class=text`, `ext=md`, `tag=x`." },

  // not found
  COLLECTION_NOT_FOUND: {
    http: 404,
    hint: "Run `grk collections` to list collections, or ingest first.",
    toolHint: "Call `list_collections` for the collections this server has.",
  },
  CHUNK_NOT_FOUND: {
    http: 404,
    hint:
      "A chunk id stands for its file, its position in it and its text: editing the file at or above the chunk, " +
      "re-chunking or removing it gives new ids. Search again for the current id.",
    toolHint:
      "A chunk id stands for its file, its position in it and its text: editing the file at or above the chunk, " +
      "re-chunking or removing it gives new ids. Call `search` again for the current id.",
  },
  DOCUMENT_NOT_FOUND: {
    http: 404,
    hint:
      "Run `grk ls` to list the indexed documents; name one by its path (relative to the current folder, or " +
      "absolute), its URL, or a document-id prefix of 6+ hex digits.",
    toolHint: "Call `list_documents` to see the indexed documents and their ids, or search again.",
  },
  VERSION_NOT_FOUND: {
    http: 404,
    hint: "Run `grk history <document>` to list the versions kept; name one by its number (0 is the current one) or its ingest time.",
    toolHint: "Call `document_history` without `version` to list the versions kept and their numbers.",
  },
  SOURCE_NOT_FOUND: { http: 404, hint: "Check the path; it must exist and be readable." },
  AMBIGUOUS_ID: { http: 400, hint: "Type more characters of the id: the message lists the ids that start with it." },
  DOCUMENT_UNAVAILABLE: {
    http: 409,
    hint: "The document's indexed text cannot be read back as it was indexed; re-ingest it (`grk update`), or read its chunks with `grk show <chunk-id>`.",
    toolHint: "The document's indexed text cannot be read back as it was indexed; read its chunks with `fetch_chunk`, or ask the server's operator to re-ingest it.",
  },

  // ingest refusals (per file; the run goes on)
  FILE_TOO_LARGE: {
    http: 413,
    hint: "Raise the cap with --max-file-size if the file is meant to be indexed.",
    toolHint: "The server's file-size cap refused it; only its operator can raise the cap.",
  },
  FILE_BINARY: { http: 415, hint: "Only text, Markdown, PDF, HTML, office and e-book files are indexed." },
  FILE_NOT_UTF8: { http: 415, hint: "Re-save the file as UTF-8." },
  FILE_UNREADABLE: { http: 403, hint: "Check the file's permissions." },
  PATH_ESCAPES_BASE: { http: 403, hint: "Only files under the base directory are indexed; symlinks may not leave it." },
  EXTRACTION_FAILED: { http: 422, hint: "The file could not be parsed; check it opens in another viewer." },
  EXTRACTION_LIMIT: {
    http: 422,
    hint: "Extracting the file needed more time, memory, output or nesting than allowed; raise the `extraction` limits in groundkit.config.json if it is meant to be indexed.",
    toolHint: "Extracting the file needed more than the server allows; only its operator can raise the extraction limits.",
  },
  DOCUMENT_ENCRYPTED: {
    http: 422,
    hint: "The document is password-protected or encrypted; save an unprotected copy to index it.",
  },
  DOCUMENT_HAS_MACROS: {
    http: 422,
    hint: "Macro-enabled documents are refused; save a copy without macros (.docx, .xlsx, .pptx, or ODF without Basic modules) to index it.",
  },
  UNSUPPORTED_TYPE: {
    http: 415,
    hint: "Supported: .md .markdown .txt .pdf .html .htm .docx .pptx .xlsx .odt .odp .ods .epub, source code and configuration files (docs/code-search.md), and http(s) URLs.",
  },

  // network
  URL_REFUSED: { http: 400, hint: "Only http(s) URLs without credentials are accepted." },
  SSRF_BLOCKED: {
    http: 403,
    hint: "The host resolves to a private or reserved address; pass --allow-private-network for intranet hosts.",
    toolHint: "The host resolves to a private or reserved address, which this server refuses to fetch.",
  },
  REDIRECT_REFUSED: { http: 502, hint: "Ingest the redirect's target URL directly." },
  FETCH_FAILED: { http: 502, hint: "Check the URL is reachable and try again." },
  FETCH_TIMEOUT: {
    http: 504,
    hint: "The server was too slow; try again or raise --timeout.",
    toolHint: "The remote server was too slow; retry later.",
  },
  BODY_TOO_LARGE: {
    http: 413,
    hint: "Raise the cap with --max-file-size if the page is meant to be indexed.",
    toolHint: "The page exceeds the server's size cap; only its operator can raise it.",
  },

  // store
  STORE_FOREIGN: { http: 409, hint: "The file is not a groundkit index; point --index-dir elsewhere." },
  STORE_NEWER: { http: 409, hint: "Upgrade groundkit: this index was written by a newer version." },
  STORE_CORRUPT: { http: 500, hint: "Delete the collection and ingest again." },
  STORE_BUSY: { http: 503, hint: "Another process holds the index; retry shortly." },
  STORE_UNAVAILABLE: {
    http: 503,
    hint: "Check that the PostgreSQL server in the store's URL (GROUNDKIT_PG_URL unless the config names another variable) is running and reachable, then retry.",
  },
  STORE_PERMISSION_DENIED: {
    http: 500,
    hint: "Grant the role in the store's URL the privileges the message names (the collection schema's owner or a superuser can), then retry.",
    toolHint: "The server's database role lacks privileges on this collection; its operator must grant them.",
  },
  STORE_UNSUPPORTED: {
    http: 501,
    hint: "This operation works on the SQLite store only; copy the collection to SQLite (grk collections copy) to run it there.",
  },
  VECTOR_INDEX_UNWRITABLE: {
    http: 500,
    hint: "Free disk space or fix the index directory's permissions; the vectors are committed, and the next ingest rebuilds the HNSW index.",
  },
  COLLECTION_BUSY: {
    http: 409,
    hint: "Another writer (ingest, reembed or delete) is changing this collection; retry when it is done, or wait longer with --lock-timeout SECONDS.",
    toolHint: "Another writer (ingest, reembed or delete) is changing this collection; retry when it is done.",
  },
  INDEX_DIR_UNUSABLE: {
    http: 500,
    hint: "Point --index-dir (or the config file's index_dir) at a directory you can create and write.",
    toolHint: "The server's index directory is unusable; its operator must fix it.",
  },
  EMBEDDING_MISMATCH: {
    http: 409,
    hint: "Use the collection's embedding identity, or `grk reembed`.",
    toolHint: "Retry with mode=bm25: the collection's vectors come from another embedding model than the server's (its operator can run `grk reembed`).",
  },
  NO_VECTORS: {
    http: 409,
    hint: "Run `grk ingest <path> --dense` (with the same --collection) to embed its chunks; existing chunks are backfilled.",
    toolHint: "Retry with mode=bm25: this collection has no vectors (its operator can add them with `grk ingest <path> --dense`).",
  },

  // service
  UNAUTHORIZED: { http: 401, hint: "Send `Authorization: Bearer <GROUNDKIT_API_TOKEN>`." },
  MUTATION_DISABLED: {
    http: 403,
    hint:
      "This server was started without a token, so it changes nothing: its operator must set the environment variable " +
      "GROUNDKIT_API_TOKEN to a long random secret and restart `grk serve` (docs/serving.md); then send " +
      "`Authorization: Bearer <token>`.",
  },
  FORBIDDEN: { http: 403, hint: "The request's Host or Origin is not allowed." },
  PAYLOAD_TOO_LARGE: { http: 413, hint: "Send a smaller request body." },
  OVERLOADED: { http: 503, hint: "The server is at capacity; retry after the Retry-After delay." },
  TIMEOUT: { http: 504, hint: "The request took too long; narrow it and retry." },
  WATCH_UNAVAILABLE: {
    http: 503,
    hint: "The system refused to watch the folder; raise the limit the message names (docs/maintenance.md, watching folders).",
  },
  REQUEST_CANCELLED: {
    http: 499,
    hint: "The request was cancelled (the client went away) before its work finished; send it again if it is still wanted.",
  },
  EXTRACTION_BUSY: {
    http: 503,
    hint: "Too many PDF/HTML extractions are already queued for this client; wait for the ones in progress, then retry.",
    toolHint: "Too many PDF/HTML re-extractions are queued for this client; wait for earlier calls to finish (or cancel them), then retry.",
  },
  BODY_TOO_SLOW: {
    http: 408,
    hint: "The request body arrived too slowly; send it at once (the server drops uploads slower than its minimum rate).",
  },
  PORT_IN_USE: {
    http: 500,
    hint: "Another process listens there (perhaps another `grk serve`): stop it, or pass --port <n> (0 picks a free one).",
  },
  ROUTE_NOT_FOUND: { http: 404, hint: "See GET /openapi.json for the routes this server offers." },
  UNSUPPORTED_MEDIA_TYPE: { http: 415, hint: "Send the request body as application/json." },

  INTERNAL: {
    http: 500,
    hint: "This is a bug; rerun with --debug and report it.",
    toolHint: "This is a bug in the server; report it with the request id.",
  },

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
    toolHint: "Retry with mode=bm25 (no embedding needed), or later once the server's embedding provider is reachable.",
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
    toolHint: "Retry with rerank=false, or later once the server's reranker is reachable.",
  },

  // answers (chat providers)
  GENERATION_FAILED: {
    http: 502,
    hint: "Check that the chat provider named in the message is running, reachable and configured as documented (docs/answers.md).",
  },
  CHAT_NOT_CONFIGURED: {
    http: 400,
    hint: "Add a `chat` section to groundkit.config.json or pass --provider, --model and --base-url (docs/answers.md).",
    toolHint: "The server has no chat provider configured; its operator must add a `chat` section to groundkit.config.json (docs/answers.md). `search` works without one.",
  },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** The base class for every deliberate groundkit error. */
export class GroundkitError extends Error {
  readonly code: ErrorCode;
  readonly detail: Record<string, unknown> | undefined;
  /** A hint for this case, in place of the code's general one (e.g. the collection name meant). */
  private readonly caseHint: string | undefined;

  constructor(code: ErrorCode, message: string, detail?: Record<string, unknown>, options?: { cause?: unknown; hint?: string }) {
    super(message, options);
    this.name = "GroundkitError";
    this.code = code;
    this.detail = detail;
    this.caseHint = options?.hint;
  }

  /** The hint for someone at the command line. */
  get hint(): string {
    return this.caseHint ?? ERROR_CATALOGUE[this.code].hint;
  }

  /** The hint for this audience: a tool caller gets one it can act on through the tools, where it differs. */
  hintFor(audience: HintAudience): string {
    if (this.caseHint !== undefined) return this.caseHint;
    const spec: ErrorSpec = ERROR_CATALOGUE[this.code];
    return audience === "tool" ? (spec.toolHint ?? spec.hint) : spec.hint;
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
