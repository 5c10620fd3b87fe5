/**
 * URL shape checks: what a URL must look like before anything is resolved or
 * fetched, and how a URL is shown in errors and logs without its secrets.
 */
import { GroundkitError } from "../core/errors.js";

// Compared after lowercasing and dropping every non-alphanumeric character
// (so "api_key", "API-Key", "api.key" and "auth[token]" all normalize).
const CREDENTIAL_NAMES: ReadonlySet<string> = new Set([
  "key",
  "pass",
  "passwd",
  "pwd",
  "auth",
  "authorization",
  "sig",
  "sid",
  "session",
  "jwt",
  "bearer",
]);

// Matched alone or as the end of a longer name ("client_secret", "X-Amz-Security-Token", "Ocp-Apim-Subscription-Key").
const CREDENTIAL_SUFFIXES: readonly string[] = [
  "token",
  "secret",
  "password",
  "passphrase",
  "apikey",
  "accesskey", // access_key, aws_secret_access_key
  "accesskeyid", // AWSAccessKeyId
  "secretkey",
  "privatekey",
  "authkey", // auth_key (DeepL and others)
  "subscriptionkey", // subscription-key, Azure's Ocp-Apim-Subscription-Key
  "signature",
  "credential",
  "credentials",
  "sessionid", // jsessionid, ASP.NET_SessionId
  "sessid", // PHPSESSID
];

const REDACTED = "REDACTED";

/** Whether a query- or path-parameter name looks like it carries a credential. */
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

/** The raw name of one `name=value` piece (the whole piece when it has no `=`). */
function rawNameOf(piece: string): string {
  const eq = piece.indexOf("=");
  return eq >= 0 ? piece.slice(0, eq) : piece;
}

/** Names of credential-shaped parameters in a `a=1&b=2` string (query or fragment). */
function credentialParams(params: string): string[] {
  if (params === "") return [];
  return params
    .split("&")
    .map((piece) => decodeName(rawNameOf(piece)))
    .filter(isCredentialName);
}

/** The `;name=value` parameters of every path segment (`/app;jsessionid=X/page`), as raw pieces. */
function pathParams(pathname: string): string[] {
  return pathname.split("/").flatMap((segment) => segment.split(";").slice(1));
}

/** Names of credential-shaped path parameters (`;jsessionid=...`). */
function credentialPathParams(pathname: string): string[] {
  return pathParams(pathname)
    .filter((piece) => piece.includes("="))
    .map((piece) => decodeName(rawNameOf(piece)))
    .filter(isCredentialName);
}

/**
 * How a URL is rewritten for display: which parameter names lose their value,
 * and whether a bare query piece (no `=`) is a name (`?token` becomes
 * `token=REDACTED` when picked) or may itself be a secret (`?s3cret` becomes `REDACTED`).
 */
interface Redaction {
  redact: (name: string) => boolean;
  barePieceIsValue: boolean;
}

/** Rewrite `a=1&b=2` piece by piece, keeping every piece the redaction does not pick byte for byte. */
function redactParams(params: string, how: Redaction): string {
  return params
    .split("&")
    .map((piece) => {
      if (piece === "") return piece;
      if (!piece.includes("=") && how.barePieceIsValue) return REDACTED;
      const rawName = rawNameOf(piece);
      return how.redact(decodeName(rawName)) ? `${rawName}=${REDACTED}` : piece;
    })
    .join("&");
}

/** Rewrite the `;name=value` path parameters `redact` picks to `;name=REDACTED`. */
function redactPathParams(pathname: string, redact: (name: string) => boolean): string {
  return pathname
    .split("/")
    .map((segment) => {
      const [head = "", ...params] = segment.split(";");
      const kept = params.map((piece) =>
        piece.includes("=") && redact(decodeName(rawNameOf(piece))) ? `${rawNameOf(piece)}=${REDACTED}` : piece,
      );
      return [head, ...kept].join(";");
    })
    .join("/");
}

/** Parse `raw`, drop userinfo and fragment, redact what `how` picks; `<invalid url>` if unparseable. */
function rewriteUrl(raw: string, how: Redaction): string {
  try {
    const url = new URL(raw);
    url.username = "";
    url.password = "";
    url.hash = "";
    url.pathname = redactPathParams(url.pathname, how.redact);
    const query = url.search.startsWith("?") ? url.search.slice(1) : url.search;
    url.search = query === "" ? "" : redactParams(query, how);
    return url.href;
  } catch {
    return "<invalid url>";
  }
}

/**
 * A URL as stored for a source: userinfo dropped, values of credential-shaped
 * query and path parameters replaced with `REDACTED`, fragment dropped; the
 * other query values stay (they tell pages apart). Never put this in a
 * message: use {@link redactUrl}. Never throws; an unparseable input becomes
 * `<invalid url>`.
 *
 * @example
 *   sanitizeUrl("https://u:p@example.com/a?api_key=s3cret&q=1#frag");
 *   // "https://example.com/a?api_key=REDACTED&q=1"
 */
export function sanitizeUrl(raw: string): string {
  return rewriteUrl(raw, { redact: isCredentialName, barePieceIsValue: false });
}

/**
 * A URL safe to put in any message (errors, logs, summaries, progress): as
 * {@link sanitizeUrl}, and EVERY query value (and bare query piece) and every
 * `;name=value` path-parameter value is replaced with `REDACTED`, whatever its
 * name, since a secret can hide under any name. Never throws; an unparseable input becomes `<invalid url>`.
 *
 * @example
 *   redactUrl("https://u:p@example.com/a;jsessionid=X?token2=s3cret&q=1#frag");
 *   // "https://example.com/a;jsessionid=REDACTED?token2=REDACTED&q=REDACTED"
 */
export function redactUrl(raw: string): string {
  return rewriteUrl(raw, { redact: () => true, barePieceIsValue: true });
}

function refuse(raw: string, why: string, detail: Record<string, unknown> = {}): GroundkitError {
  const safe = redactUrl(raw);
  return new GroundkitError("URL_REFUSED", `URL refused (${why}): ${safe}`, { url: safe, ...detail });
}

/**
 * Check that `raw` is an http(s) URL with a host and without credentials
 * (no `user:pass@`, no credential-shaped query, fragment or `;path` parameter
 * such as `api_key`, `Access-Token`, `X-Amz-Signature`, `PHPSESSID`,
 * `;jsessionid=`), and return it parsed. Error messages show the redacted URL only.
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
  const names = [
    ...credentialParams(query),
    ...(fragment.includes("=") ? credentialParams(fragment) : []),
    ...credentialPathParams(url.pathname),
  ];
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

/**
 * Whether a source string is a URL of any scheme rather than a path: a scheme
 * of two or more characters followed by `//` (`ftp://h/`, `file:///etc/passwd`),
 * or any `file:` URL. Such inputs go to the URL checks, which refuse every
 * scheme but http(s) by name, instead of being looked up as a relative path.
 *
 * @example
 *   hasUrlScheme("file:///etc/passwd"); // true
 *   hasUrlScheme("docs/readme.md");     // false
 */
export function hasUrlScheme(s: string): boolean {
  return /^[a-z][a-z0-9+.-]+:\/\//i.test(s) || /^file:/i.test(s);
}
