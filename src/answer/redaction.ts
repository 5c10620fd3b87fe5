/**
 * Redaction: before a question or a passage is sent to a chat provider,
 * secrets in it are replaced by a typed placeholder such as
 * `[REDACTED:aws-access-key]`, and the kinds are counted so the answer can say
 * what was withheld. The patterns aim at credentials with a recognisable shape
 * (the issuer's prefix, a PEM header, a JWT's three parts, `user:pass@` in a
 * URL, `password=` style assignments); a secret without any shape cannot be
 * told from prose and is not caught (KNOWN_LIMITATIONS.md).
 *
 * Every pattern is linear: bounded repetitions, no nested quantifiers.
 */

/** The kinds of secret recognised, in the order they are replaced. */
export const SECRET_KINDS = [
  "private-key",
  "jwt",
  "aws-access-key",
  "github-token",
  "gitlab-token",
  "slack-token",
  "google-api-key",
  "stripe-key",
  "openai-key",
  "anthropic-key",
  "npm-token",
  "url-password",
  "credential",
] as const;

export type SecretKind = (typeof SECRET_KINDS)[number];

interface Rule {
  kind: SecretKind;
  pattern: RegExp;
  /** Replace only this capture group (the value of an assignment, the password of a URL); whole match otherwise. */
  group?: number;
}

const RULES: readonly Rule[] = [
  {
    kind: "private-key",
    pattern: /-----BEGIN (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,16384}?-----END (?:[A-Z0-9]+ ){0,3}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  { kind: "jwt", pattern: /\beyJ[A-Za-z0-9_-]{8,4096}\.eyJ[A-Za-z0-9_-]{8,8192}\.[A-Za-z0-9_-]{8,4096}/g },
  { kind: "aws-access-key", pattern: /\b(?:AKIA|ASIA|ABIA|ACCA)[A-Z0-9]{16}\b/g },
  { kind: "github-token", pattern: /\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b/g },
  { kind: "gitlab-token", pattern: /\bglpat-[A-Za-z0-9_-]{20,64}\b/g },
  { kind: "slack-token", pattern: /\bxox[abposr]-[A-Za-z0-9-]{10,255}\b/g },
  { kind: "google-api-key", pattern: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "stripe-key", pattern: /\b(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{16,247}\b/g },
  { kind: "anthropic-key", pattern: /\bsk-ant-[A-Za-z0-9_-]{20,255}/g },
  { kind: "openai-key", pattern: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,255}/g },
  { kind: "npm-token", pattern: /\bnpm_[A-Za-z0-9]{36}\b/g },
  // scheme://user:password@host — only the password goes.
  { kind: "url-password", pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/[^\s:/?#@]{1,256}:([^\s/?#@]{1,256})@/gi, group: 1 },
  // password = hunter2, api_key: "…", SECRET_TOKEN=… — the value goes, the name stays (it says what was withheld).
  {
    kind: "credential",
    pattern:
      /\b[\w.-]{0,40}?(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|auth)[\w.-]{0,40}["']?\s{0,4}[:=]\s{0,4}["']?([^\s"',;]{4,512})/gi,
    group: 1,
  },
];

/** What {@link redactSecrets} did. */
export interface Redaction {
  text: string;
  /** Secrets replaced, by kind (kinds with none are absent). */
  counts: Partial<Record<SecretKind, number>>;
}

/** The placeholder that stands for a secret of `kind`. */
export function placeholderFor(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

const PLACEHOLDER = /^\[REDACTED:[a-z-]+\]/;

/**
 * Replace every recognised secret in `text` with its typed placeholder.
 *
 * @example
 *   redactSecrets("key AKIAABCDEFGHIJKLMNOP").text // "key [REDACTED:aws-access-key]"
 */
export function redactSecrets(text: string): Redaction {
  const counts: Partial<Record<SecretKind, number>> = {};
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (match: string, ...rest: unknown[]) => {
      const value = rule.group !== undefined ? rest[rule.group - 1] : undefined;
      if (rule.group !== undefined) {
        // An assignment whose value is already a placeholder (or empty) has nothing left to hide.
        if (typeof value !== "string" || PLACEHOLDER.test(value) || value.startsWith("[REDACTED")) return match;
        counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
        const at = match.lastIndexOf(value);
        return match.slice(0, at) + placeholderFor(rule.kind) + match.slice(at + value.length);
      }
      counts[rule.kind] = (counts[rule.kind] ?? 0) + 1;
      return placeholderFor(rule.kind);
    });
  }
  return { text: out, counts };
}

/** Add `more` into `into` (counts by kind). */
export function addCounts(into: Partial<Record<SecretKind, number>>, more: Partial<Record<SecretKind, number>>): void {
  for (const [kind, n] of Object.entries(more) as [SecretKind, number][]) into[kind] = (into[kind] ?? 0) + n;
}
