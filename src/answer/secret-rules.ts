/**
 * The shapes of secret that redaction recognises, as rules that find spans.
 * The families follow the public secret-scanning rule sets (issuer-prefixed
 * tokens, private-key material, credentials in URLs, headers, assignments,
 * configuration blocks and command lines); the rules are our own.
 *
 * A rule says which part of a match is the secret (the value of an
 * assignment, the password of a URL, the token after `Bearer`); the name
 * around it stays so the reader knows what was withheld. Every pattern is
 * linear: bounded repetitions, no nested quantifiers over the same text.
 */

/** The kinds of secret recognised. */
export const SECRET_KINDS = [
  "private-key",
  "key-material",
  "jwt",
  "aws-access-key",
  "github-token",
  "gitlab-token",
  "slack-token",
  "google-api-key",
  "stripe-key",
  "anthropic-key",
  "openai-key",
  "npm-token",
  "api-token",
  "webhook-url",
  "auth-header",
  "url-password",
  "password-hash",
  "credential",
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

/** A secret found in a text: UTF-16 offsets [start, end). */
export interface SecretSpan {
  start: number;
  end: number;
  kind: SecretKind;
}

interface PatternRule {
  kind: SecretKind;
  /** Must carry the `g` and `d` flags. */
  pattern: RegExp;
  /** The capture group that is the secret; the whole match when absent. */
  group?: number;
  /** Skip values that are references or placeholders, not secrets (assignment-style rules). */
  valueCheck?: boolean;
  /** Keep only values that look like a token: a digit, or upper and lower case letters. */
  tokenLike?: boolean;
  /** This capture group must name a secret (`DB_PASSWORD`, `client_secret`). */
  nameGroup?: number;
}

// Issuer-prefixed tokens: the prefix says what it is, so the whole token goes.
const TOKENS: PatternRule[] = [
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/dg },
  { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}\b/dg },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/dg },
  { kind: "gitlab-token", pattern: /\b(?:glpat|gldt|glrt|glptt|glsoat|glcbt|glimt|glagent|gloas)-[A-Za-z0-9_-]{20,64}\b|\bGR1348941[A-Za-z0-9_-]{20,64}\b/dg },
  { kind: "slack-token", pattern: /\bxox[abposre]-[A-Za-z0-9-]{10,255}\b|\bxapp-\d-[A-Z0-9]{6,20}-\d{6,20}-[a-f0-9]{32,128}\b/dg },
  { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/dg },
  { kind: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test|prod)_[0-9A-Za-z]{16,247}\b|\bwhsec_[0-9A-Za-z]{24,128}\b/dg },
  { kind: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,255}/dg },
  { kind: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/dg },
  { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/dg },
  {
    kind: "api-token",
    pattern: new RegExp(
      [
        String.raw`\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{40,300}`, // PyPI upload token
        String.raw`\bGOCSPX-[A-Za-z0-9_-]{20,40}`, // Google OAuth client secret
        String.raw`\bya29\.[A-Za-z0-9_-]{20,400}`, // Google OAuth access token
        String.raw`\bSG\.[A-Za-z0-9_-]{16,32}\.[A-Za-z0-9_-]{16,64}`, // SendGrid
        String.raw`\bSK[0-9a-f]{32}\b`, // Twilio API key
        String.raw`\bkey-[0-9a-zA-Z]{32}\b`, // Mailgun
        String.raw`\b[0-9a-f]{32}-us\d{1,2}\b`, // Mailchimp
        String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`, // DigitalOcean
        String.raw`\bshp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}\b`, // Shopify
        String.raw`\bhv[sbr]\.[A-Za-z0-9_-]{24,200}`, // HashiCorp Vault
        String.raw`\b[A-Za-z0-9]{14}\.atlasv1\.[A-Za-z0-9_=-]{60,120}`, // Terraform Cloud
        String.raw`\bdapi[a-f0-9]{32}(?:-\d)?\b`, // Databricks
        String.raw`\bhf_[A-Za-z]{34}\b`, // Hugging Face
        String.raw`\bATATT3[A-Za-z0-9_=-]{100,300}`, // Atlassian
        String.raw`\blin_(?:api|oauth)_[A-Za-z0-9]{40}\b`, // Linear
        String.raw`\bPMAK-[a-f0-9]{24}-[a-f0-9]{34}\b`, // Postman
        String.raw`\bsntr[ysu]_[A-Za-z0-9_=+/-]{40,200}`, // Sentry
        String.raw`\bgl(?:c|sa)_[A-Za-z0-9_+/=-]{32,200}`, // Grafana
        String.raw`\bNRAK-[A-Z0-9]{27}\b`, // New Relic
        String.raw`\bdt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}\b`, // Dynatrace
        String.raw`\bAGE-SECRET-KEY-1[0-9A-Z]{58}\b`, // age
        String.raw`\b\d{8,10}:AA[A-Za-z0-9_-]{33}\b`, // Telegram bot
        String.raw`\bsq0(?:atp|csp)-[A-Za-z0-9_-]{22,43}`, // Square
        String.raw`\bEAAA[A-Za-z0-9_-]{60}\b`, // Square access token
        String.raw`\baccess_token\$production\$[a-z0-9]{16}\$[a-f0-9]{32}`, // Braintree
        String.raw`\bEAA[CG][A-Za-z0-9]{60,300}`, // Facebook access token
        String.raw`\bdp\.(?:pt|st|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`, // Doppler
        String.raw`\bLTAI[A-Za-z0-9]{20}\b`, // Alibaba Cloud
        String.raw`\bHRKU-[A-Za-z0-9_-]{60}\b`, // Heroku
        String.raw`\b[A-Za-z0-9_~.-]{3}8Q~[A-Za-z0-9_~.-]{31,34}`, // Azure AD client secret
        String.raw`\bAAAAAAAAAAAAAAAAAAAAA[A-Za-z0-9%]{30,200}`, // Twitter/X bearer
        String.raw`\bamzn\.mws\.[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`, // Amazon MWS
      ].join("|"),
      "dg",
    ),
  },
  {
    kind: "webhook-url",
    pattern:
      /https:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]{20,200}|(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/webhooks\/\d{5,30}\/[A-Za-z0-9_-]{20,100}|[a-z0-9-]{1,63}\.webhook\.office\.com\/[A-Za-z0-9@/_.-]{20,400})/dg,
  },
  // A stored password hash (htpasswd, shadow, bcrypt) can be cracked offline.
  { kind: "password-hash", pattern: /\$(?:apr1|2[abxy]|1|5|6|y|argon2id?|scrypt)\$[A-Za-z0-9./$=,+-]{8,512}/dg },
];

/** The last segment of an identifier, lower-cased: `DB_PASSWORD` → `password`, `clientSecret` → `secret`, `x-api-key` → `key` (with its previous segment). */
function segments(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .split(/[_.\-\s[\]]+/)
    .filter(Boolean);
}

/** Last segments that name a secret on their own. */
const SECRET_SEGMENTS = new Set([
  "password", "passwd", "pass", "pwd", "pw", "passphrase", "secret", "token", "apikey", "auth", "credential",
  "credentials", "pat", "sig", "signature", "privatekey", "secretkey", "accesskey", "authtoken", "sas", "psk", "cookie",
]);
/** Endings of a last segment that name a secret (`pgpassword`, `accesstoken`, `clientsecret`). */
const SECRET_ENDINGS = ["password", "passwd", "passphrase", "secret", "token", "apikey", "secretkey", "privatekey", "accesskey"];
/** A `key` segment is a secret only after one of these (`api_key`, `AccountKey`, `SECRET_KEY`). */
const KEY_QUALIFIERS = new Set([
  "api", "access", "secret", "private", "signing", "encryption", "master", "client", "license", "auth", "account",
  "app", "consumer", "session", "storage", "shared", "sharedaccess", "subscription", "service", "admin", "root", "hmac",
]);

/** Whether an identifier names a secret (by its last segment). */
export function isSecretName(name: string): boolean {
  const parts = segments(name);
  const last = parts[parts.length - 1];
  if (last === undefined) return false;
  if (SECRET_SEGMENTS.has(last)) return true;
  if (SECRET_ENDINGS.some((e) => last.endsWith(e))) return true;
  if (last === "key" || last === "keys") return parts.length >= 2 && KEY_QUALIFIERS.has(parts[parts.length - 2]!);
  return false;
}

/** Values that are no secret: empty-ish, a type, a reference to a variable or a placeholder. */
const NOT_A_VALUE = new Set([
  "true", "false", "null", "nil", "none", "undefined", "string", "str", "int", "integer", "number", "boolean", "bool",
  "required", "optional", "yes", "no", "on", "off", "empty", "redacted", "object", "array", "bytes", "text", "secret",
  "password", "token", "value", "default", "example", "see", "the", "a", "an", "your", "this", "that", "basic",
  "bearer", "oauth", "oauth2", "jwt", "digest", "prompt", "stdin",
]);
const REFERENCE = /^(?:\$\{?[A-Za-z_]|%[A-Za-z_][\w]*%|\{\{|<[^>\n]{0,80}>$|\[REDACTED|process\.env|os\.environ|env[.([]|getenv|secrets\.|vault:|\*{3,}|x{4,}$|\.\.\.|…)/i;

/** Whether an assignment's value is a secret worth withholding (not a type, a reference or a placeholder). */
export function isSecretValue(value: string, after: string, assigned = false): boolean {
  const v = value.replace(/^["'`]|["'`]$/g, "");
  if (v.length < 3) return false;
  if (NOT_A_VALUE.has(v.toLowerCase())) return false;
  if (REFERENCE.test(v)) return false;
  // Prose ("password: the one you chose at install"): a bare lower-case word followed by more words, after a colon.
  if (!assigned && /^[a-z]+$/.test(v) && /^[ \t]+[a-z]/.test(after)) return false;
  return true;
}

const NAME = String.raw`[A-Za-z_$@][\w.$@-]{0,80}`;
const VALUE = String.raw`(?:"[^"\n]{1,1024}"|'[^'\n]{1,1024}'|\x60[^\x60\n]{1,1024}\x60|[^\s"'\x60,;&<>(){}\[\]]{1,256})`;

// Credentials by context: the value after a secret's name, header, flag or URL.
const CONTEXT: PatternRule[] = [
  // Authorization: Bearer <token> / Basic <base64> / Token … — the scheme stays, the credential goes.
  {
    kind: "auth-header",
    pattern: /\b(?:Proxy-)?Authorization["']?\s{0,4}[:=]\s{0,4}["']?(?:Digest|Negotiate|NTLM|AWS4-HMAC-SHA256|OAuth)\s{1,4}([^\s"'][^"'\n]{0,2047})/dgi,
    group: 1,
    valueCheck: true,
  },
  {
    kind: "auth-header",
    pattern: /\b(?:Proxy-)?Authorization["']?\s{0,4}[:=]\s{0,4}["']?(?:(?:Bearer|Basic|Token|Bot|ApiKey|SSWS|Splunk|GenieKey)\s{1,4})?([^\s"',;]{3,4096})/dgi,
    group: 1,
    valueCheck: true,
    tokenLike: true,
  },
  { kind: "auth-header", pattern: /\b(?:Bearer|Basic)\s{1,4}([A-Za-z0-9._~+/=-]{12,4096})/dg, group: 1, valueCheck: true, tokenLike: true },
  // Cookie headers carry session credentials.
  { kind: "credential", pattern: /\b(?:Set-)?Cookie:[ \t]{0,4}([^\s=;]{1,256}=[^\n]{1,4096})/dgi, group: 1 },
  // scheme://user:password@host — only the password goes (a password may itself hold "@").
  { kind: "url-password", pattern: /\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@]{0,256}:([^\s/]{1,256})@[^\s/?#@:]{1,256}/dgi, group: 1 },
  // <add key="ApiKey" value="…"/> and similar key/value attribute pairs.
  {
    kind: "credential",
    pattern: /\b(?:key|name)=["']([A-Za-z_][\w.:-]{0,80})["'][^>\n]{0,40}?\bvalue=["']([^"'\n]{1,1024})["']/dg,
    group: 2,
    nameGroup: 1,
    valueCheck: true,
  },
  // YAML block scalar: `password: |` / `>-` followed by indented lines — the lines go.
  {
    kind: "credential",
    pattern: /^([ \t]{0,40})["']?([A-Za-z_][\w.-]{0,80})["']?[ \t]{0,4}:[ \t]{0,4}(?:![\w!/.-]{1,40}[ \t]{1,4})?[|>][-+0-9]{0,2}[ \t]{0,40}\r?\n((?:\1[ \t]{1,40}[^\n]{0,4096}(?:\n|$)){1,200})/dgm,
    group: 3,
    nameGroup: 2,
  },
  // .netrc: machine host login user password secret
  { kind: "credential", pattern: /\bmachine\s{1,8}\S{1,256}\s{1,8}login\s{1,8}\S{1,256}\s{1,8}password\s{1,8}(\S{1,512})/dg, group: 1 },
  // .pgpass: host:port:database:user:password
  { kind: "credential", pattern: /^[^\s:#]{1,256}:(?:\d{1,5}|\*):[^\s:]{1,256}:[^\s:]{1,256}:(\S{1,512})$/dgm, group: 1 },
  // Passwords on command lines.
  ...commandLine(String.raw`mysql|mysqldump|mysqladmin|mariadb|mariadb-dump|mysqlimport|mysqlsh`, String.raw`-p(?=[^\s])`),
  ...commandLine(String.raw`redis-cli|keydb-cli`, String.raw`(?:-a|--pass|--password)\s{1,4}`),
  ...commandLine(String.raw`sshpass|mongo|mongosh|mongodump|mongorestore|mongoexport|mongoimport`, String.raw`-p\s{0,4}`),
  ...commandLine(String.raw`(?:docker|podman|nerdctl|buildah|skopeo|helm\s{1,4}registry)\s{1,4}login`, String.raw`(?:-p|--password)\s{1,4}`),
  ...commandLine(String.raw`ldapsearch|ldapadd|ldapmodify|ldapdelete|ldappasswd|ldapwhoami`, String.raw`-w\s{1,4}`),
  ...commandLine(String.raw`curl|wget|httpie|http`, String.raw`(?:-u|--user|--proxy-user|-U)\s{0,4}["']?[^\s:"']{0,256}:`),
  ...commandLine(String.raw`smbclient|rpcclient|smbmap`, String.raw`-U\s{0,4}["']?[^\s%"']{1,256}%`),
  ...commandLine(String.raw`zip|unzip`, String.raw`-P\s{0,4}`),
  ...commandLine(String.raw`7z|7za|7zr|rar|unrar`, String.raw`-p(?=[^\s])`),
  ...commandLine(String.raw`htpasswd`, String.raw`-[a-zA-Z]{0,6}b[a-zA-Z]{0,6}\s{1,4}\S{1,512}\s{1,4}\S{1,256}\s{1,4}`),
  ...commandLine(String.raw`net\s{1,4}use`, String.raw`\/user:\S{1,256}\s{1,4}`),
  { kind: "credential", pattern: /\s-(?:storepass|keypass|srcstorepass|deststorepass|srckeypass|destkeypass)\s{1,4}(\S{1,512})/dg, group: 1, valueCheck: true },
  { kind: "credential", pattern: /\bpass:([^\s"']{1,512})/dg, group: 1, valueCheck: true },
  // --password VALUE, --token=VALUE, -password VALUE: any tool's option naming a secret.
  {
    kind: "credential",
    pattern: /(?:^|\s)--?(?:[a-z0-9]{1,20}-){0,3}(?:password|passwd|pass|pwd|passphrase|token|secret|api-key|apikey|access-token|auth-token|client-secret|secret-key|access-key)(?:=|\s{1,4})(\S{1,1024})/dgim,
    group: 1,
    valueCheck: true,
  },
  // name = value, name: value, "name": "value", name := value, name => value, NAME=value (env files, shells, code).
  {
    kind: "credential",
    pattern: new RegExp(String.raw`(?<![\w.$@-])(${NAME})["'\x60]?\]?[ \t]{0,4}(?::=|=>|->|==|[:=])[ \t]{0,4}(${VALUE})`, "dg"),
    group: 2,
    nameGroup: 1,
    valueCheck: true,
  },
];

/** A password given to `tools` right after `flag` (which may hold a user name up to the password). */
function commandLine(tools: string, flag: string): PatternRule[] {
  const value = String.raw`("[^"\n]{1,512}"|'[^'\n]{1,512}'|[^\s"']\S{0,511})`;
  return [{ kind: "credential", pattern: new RegExp(String.raw`\b(?:${tools})\b[^\n]{0,300}?\s${flag}${value}`, "dg"), group: 1, valueCheck: true }];
}

export interface RuleMatch {
  kind: SecretKind;
  start: number;
  end: number;
}

/** The secret part of match `m` of `rule`, or undefined when the match is no secret. */
function acceptedSpan(rule: PatternRule, m: RegExpExecArray, text: string): RuleMatch | undefined {
  const g = rule.group ?? 0;
  const at = m.indices?.[g];
  const value = m[g];
  if (!at || value === undefined || value === "") return undefined;
  if (rule.nameGroup !== undefined && !isSecretName(m[rule.nameGroup] ?? "")) return undefined;
  const assigned = text.slice(m.index, at[0]).includes("=");
  if (rule.valueCheck && !isSecretValue(value, text.slice(at[1], at[1] + 4), assigned)) return undefined;
  if (rule.tokenLike && !/\d/.test(value) && !(/[A-Z]/.test(value) && /[a-z]/.test(value))) return undefined;
  // Quotes around a value stay: they are syntax, not secret.
  let [start, end] = at;
  if (/^["'`]/.test(value) && value.length >= 2 && value[value.length - 1] === value[0]) {
    start++;
    end--;
  }
  while (end > start && /[\r\n]/.test(text[end - 1]!)) end--;
  return end > start ? { kind: rule.kind, start, end } : undefined;
}

/** Pattern-rule spans of `text` (before merging). */
export function patternSpans(text: string): RuleMatch[] {
  const out: RuleMatch[] = [];
  for (const rule of [...TOKENS, ...CONTEXT]) {
    const re = rule.pattern;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = re.exec(text)) {
      const span = acceptedSpan(rule, m, text);
      // A rejected match (a name that is no secret's, a placeholder value) may hide one that starts inside it.
      if (!span) re.lastIndex = m.index + 1;
      else out.push(span);
      if (m[0] === "") re.lastIndex++;
    }
  }
  return out;
}

const BEGIN_KEY = /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const END_KEY = /-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;
const PUBLIC_BLOCK = /-----BEGIN ((?:[A-Z0-9]{1,20} ){0,3}(?:CERTIFICATE|PUBLIC KEY|CERTIFICATE REQUEST|X509 CRL|PKCS7|SSH2 PUBLIC KEY))-----[\s\S]{0,65536}?-----END \1-----/g;
/** One line of base64 (PEM, OpenSSH, PuTTY bodies), indentation and a trailing `\` of a shell or JSON string allowed. */
const BASE64_LINE = /^[ \t"']{0,40}[A-Za-z0-9+/]{1,120}={0,2}["',\\]{0,3}\r?$/;
/** Lines that look like key material when at least this many full-width ones stand together. */
const MIN_BODY_LINES = 2;
const FULL_LINE = 40;

/**
 * Private-key material: a `BEGIN … PRIVATE KEY` block (to its END, or to the
 * end of the text when the END is not in it), an END whose BEGIN is not in the
 * text (from the start), a PuTTY key's private lines, and a run of base64 lines
 * standing alone (a key body whose markers are in other chunks). Base64 inside
 * a certificate or public-key block is public and stays.
 */
export function keySpans(text: string): RuleMatch[] {
  const out: RuleMatch[] = [];
  const ends = [...text.matchAll(END_KEY)];
  let covered = 0;
  for (const b of text.matchAll(BEGIN_KEY)) {
    if (b.index < covered) continue;
    const end = ends.find((e) => e.index > b.index);
    const stop = end ? end.index + end[0].length : text.length;
    out.push({ kind: "private-key", start: b.index, end: stop });
    covered = stop;
  }
  const firstEnd = ends[0];
  if (firstEnd && !out.some((s) => s.start < firstEnd.index)) out.push({ kind: "private-key", start: 0, end: firstEnd.index + firstEnd[0].length });
  for (const m of text.matchAll(/^Private-Lines:[ \t]{0,4}\d{1,4}\r?\n((?:[A-Za-z0-9+/=]{1,128}\r?\n){1,400})(?:Private-MAC:[^\n]{0,256})?/gm)) {
    out.push({ kind: "private-key", start: m.index, end: m.index + m[0].length });
  }
  // Escaped newlines (a key inside a JSON or shell string): a run of base64 pieces joined by a literal "\n".
  for (const m of text.matchAll(/(?:[A-Za-z0-9+/=]{40,120}\\n){2,400}[A-Za-z0-9+/=]{0,120}/g)) {
    out.push({ kind: "key-material", start: m.index, end: m.index + m[0].length });
  }
  const publicBlocks = [...text.matchAll(PUBLIC_BLOCK)].map((m) => [m.index, m.index + m[0].length] as const);
  for (const run of base64Runs(text)) {
    if (publicBlocks.some(([a, b]) => run.start >= a && run.end <= b)) continue;
    out.push({ kind: "key-material", ...run });
  }
  return out;
}

/** Runs of base64-only lines with at least two full-width ones; a partial line at either edge of the text joins its run. */
function base64Runs(text: string): Array<{ start: number; end: number }> {
  const runs: Array<{ start: number; end: number }> = [];
  let run: { start: number; end: number; full: number; lines: number } | undefined;
  let at = 0;
  const close = (): void => {
    // Lines of hex only are digests (checksums, commit ids), not key bodies.
    if (run && run.full >= MIN_BODY_LINES && !/^[\s0-9a-fA-F"',\\]*$/.test(text.slice(run.start, run.end))) runs.push({ start: run.start, end: run.end });
    run = undefined;
  };
  while (at <= text.length) {
    const nl = text.indexOf("\n", at);
    const lineEnd = nl < 0 ? text.length : nl;
    const line = text.slice(at, lineEnd);
    const atEdge = at === 0 || lineEnd === text.length;
    const stripped = line.trim();
    if (BASE64_LINE.test(line) && (stripped.length >= 16 || atEdge || run !== undefined)) {
      const full = stripped.replace(/["',\\=]/g, "").length >= FULL_LINE ? 1 : 0;
      if (run) {
        run.end = lineEnd;
        run.full += full;
        run.lines++;
      } else run = { start: at, end: lineEnd, full, lines: 1 };
      // A short line ends a body (the last line of a PEM block), unless the text ends there.
      if (!full && run.lines > 1) close();
    } else close();
    if (nl < 0) break;
    at = nl + 1;
  }
  close();
  return runs;
}
