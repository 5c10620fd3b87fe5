/**
 * URL shape checks: what a URL must look like before anything is resolved or
 * fetched, and how a URL is shown in errors and logs without its secrets.
 */
import { GroundkitError } from "../core/errors.js";

// Compared after lowercasing and dropping every non-alphanumeric character
// (so "api_key", "API-Key", "api.key" and "auth[token]" all normalize).
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  "token",
  "accesstoken",
  "apikey",
  "key",
  "secret",
  "password",
  "passwd",
  "pwd",
  "auth",
  "authorization",
  "signature",
  "sig",
  "session",
  "sessionid",
  "sessiontoken",
  "clientsecret",
  "privatekey",
  "credential",
  "credentials",
  "jwt",
  "bearer",
  "xamzsignature",
  "xamzcredential",
  "xamzsecuritytoken",
]);

const CREDENTIAL_SUFFIXES: readonly string[] = [
  "token",
  "secret",
  "password",
  "apikey",
  "signature",
  "credential",
  "credentials",
];

const REDACTED = "REDACTED";

/** Whether a query-parameter name looks like it carries a credential. */
function isCredentialName(name: string): boolean {
  const norm = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (norm === "") return false;
  return CREDENTIAL_NAMES.has(norm) || CREDENTIAL_SUFFIXES.some((suffix) => norm.endsWith(suffix));
}

function decodeName(raw: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "));
  } catch {
    return raw;
  }
}

/** Names of credential-shaped parameters in a `a=1&b=2` string (query or fragment). */
function credentialParams(params: string): string[] {
  if (params === "") return [];
  const found: string[] = [];
  for (const piece of params.split("&")) {
    const eq = piece.indexOf("=");
    const name = decodeName(eq >= 0 ? piece.slice(0, eq) : piece);
    if (isCredentialName(name)) found.push(name);
  }
  return found;
}

/** Rewrite `a=1&b=2`, keeping every piece byte for byte except credential values. */
function redactParams(params: string): string {
  return params
    .split("&")
    .map((piece) => {
      const eq = piece.indexOf("=");
      const rawName = eq >= 0 ? piece.slice(0, eq) : piece;
      return isCredentialName(decodeName(rawName)) ? `${rawName}=${REDACTED}` : piece;
    })
    .join("&");
}

/**
 * A URL safe to print in errors and logs: userinfo dropped, values of
 * credential-shaped query parameters replaced with `REDACTED`, fragment
 * dropped. Never throws; an unparseable input becomes `<invalid url>`.
 *
 * @example
 *   sanitizeUrl("https://u:p@example.com/a?api_key=s3cret&q=1#frag");
 *   // "https://example.com/a?api_key=REDACTED&q=1"
 */
export function sanitizeUrl(raw: string): string {
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    url.hash = "";
    const query = url.search.startsWith("?") ? url.search.slice(1) : url.search;
    url.search = query === "" ? "" : redactParams(query);
    return url.href;
  } catch {
    return "<invalid url>";
  }
}

function refuse(raw: string, why: string, detail: Record<string, unknown> = {}): GroundkitError {
  const safe = sanitizeUrl(raw);
  return new GroundkitError("URL_REFUSED", `URL refused (${why}): ${safe}`, { url: safe, ...detail });
}

/**
 * Check that `raw` is an http(s) URL with a host and without credentials
 * (no `user:pass@`, no credential-shaped query or fragment parameter such as
 * `api_key`, `Access-Token`, `X-Amz-Signature`), and return it parsed.
 * Error messages show the sanitized URL only.
 *
 * @throws GroundkitError URL_REFUSED
 * @example
 *   checkUrlShape("https://example.com/docs?page=2").hostname; // "example.com"
 *   checkUrlShape("ftp://example.com/");                       // throws URL_REFUSED
 */
export function checkUrlShape(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refuse(raw, "not a valid URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw refuse(raw, `scheme ${JSON.stringify(url.protocol.replace(/:$/, ""))} is not http or https`);
  }
  if (url.hostname === "") throw refuse(raw, "no host");
  if (url.username !== "" || url.password !== "") throw refuse(raw, "credentials in the URL's userinfo");
  const query = url.search.startsWith("?") ? url.search.slice(1) : url.search;
  const fragment = url.hash.startsWith("#") ? url.hash.slice(1) : url.hash;
  // The fragment is never sent, but OAuth puts tokens there and the URL would be stored as a source.
  const names = [...credentialParams(query), ...(fragment.includes("=") ? credentialParams(fragment) : [])];
  if (names.length > 0) {
    throw refuse(raw, `credential-shaped parameter ${names.map((n) => JSON.stringify(n)).join(", ")}`, {
      parameters: names,
    });
  }
  return url;
}

/**
 * Whether a source string is an http(s) URL rather than a path.
 *
 * @example
 *   isUrlSource("HTTPS://example.com"); // true
 *   isUrlSource("docs/readme.md");      // false
 */
export function isUrlSource(s: string): boolean {
  return /^https?:\/\//i.test(s);
}
