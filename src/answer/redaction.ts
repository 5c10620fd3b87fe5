/**
 * Redaction: before a question or a passage is sent to a chat provider,
 * secrets in it are replaced by a typed placeholder such as
 * `[REDACTED:aws-access-key]`, and the replacements are counted so the answer
 * can say what was withheld. The shapes are in secret-rules.ts; a secret
 * without any shape cannot be told from prose and is not caught
 * (KNOWN_LIMITATIONS.md).
 *
 * A passage is a window of its document, and a secret can straddle its edge
 * (a private key split across chunks, each holding only its BEGIN or its END
 * line). So a passage is redacted within its surrounding document text when
 * the caller has it: secrets are found over the larger text and every part
 * of one that falls inside the passage is withheld.
 */
import { keySpans, patternSpans, SECRET_KINDS, type RuleMatch, type SecretKind, type SecretSpan } from "./secret-rules.js";

export { SECRET_KINDS, type SecretKind, type SecretSpan } from "./secret-rules.js";

/** What {@link redactSecrets} did. */
export interface Redaction {
  text: string;
  /** Secrets replaced, by kind (kinds with none are absent); counted from the replacements made. */
  counts: Partial<Record<SecretKind, number>>;
}

/** The placeholder that stands for a secret of `kind`. */
export function placeholderFor(kind: SecretKind): string {
  return `[REDACTED:${kind}]`;
}

const PLACEHOLDER = /\[REDACTED:[a-z-]{1,40}\]/g;

/** Rank of a kind when spans of two kinds merge: the more specific (earlier) one names the result. */
const RANK = new Map<SecretKind, number>(SECRET_KINDS.map((k, i) => [k, i]));

/** Merge overlapping or touching spans; the merged span keeps the most specific kind. */
function merge(spans: RuleMatch[]): SecretSpan[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: SecretSpan[] = [];
  for (const s of sorted) {
    const last = out[out.length - 1];
    if (last && s.start <= last.end) {
      if (s.end > last.end) last.end = s.end;
      if (RANK.get(s.kind)! < RANK.get(last.kind)!) last.kind = s.kind;
      continue;
    }
    out.push({ ...s });
  }
  return out;
}

/** Every secret in `text`, merged, as UTF-16 spans; placeholders already in the text are not secrets. */
export function findSecrets(text: string): SecretSpan[] {
  const placeholders = [...text.matchAll(PLACEHOLDER)].map((m) => [m.index, m.index + m[0].length] as const);
  const spans = [...keySpans(text), ...patternSpans(text)].filter(
    (s) => !placeholders.some(([a, b]) => s.start >= a && s.end <= b),
  );
  return merge(spans);
}

/** Replace `spans` (sorted, disjoint) of `text` by placeholders; counts come from the replacements made. */
function apply(text: string, spans: readonly SecretSpan[]): Redaction {
  const counts: Partial<Record<SecretKind, number>> = {};
  let out = "";
  let at = 0;
  for (const s of spans) {
    if (s.end <= s.start || s.start < at) continue;
    out += text.slice(at, s.start) + placeholderFor(s.kind);
    counts[s.kind] = (counts[s.kind] ?? 0) + 1;
    at = s.end;
  }
  return { text: out + text.slice(at), counts };
}

/**
 * Replace every recognised secret in `text` with its typed placeholder.
 *
 * @example
 *   redactSecrets("key AKIAABCDEFGHIJKLMNOP").text // "key [REDACTED:aws-access-key]"
 */
export function redactSecrets(text: string): Redaction {
  return apply(text, findSecrets(text));
}

/** A passage's surrounding document text: `text` holds the passage at UTF-16 offset `at`. */
export interface PassageContext {
  text: string;
  at: number;
}

/**
 * Redact `passage` seeing the document around it: a secret found in
 * `context` that overlaps the passage is withheld from it, even when only a
 * part of the secret (or none of its recognisable markers) is inside. Without
 * a context, or one that does not hold the passage where it says, the passage
 * is redacted on its own.
 *
 * @example
 *   // A chunk holding only the middle of a key: its BEGIN and END are in the context.
 *   redactPassage(body, { text: wholeKey, at: wholeKey.indexOf(body) }).text // "[REDACTED:private-key]"
 */
export function redactPassage(passage: string, context?: PassageContext): Redaction {
  const own = findSecrets(passage);
  if (!context || context.text.slice(context.at, context.at + passage.length) !== passage) return apply(passage, own);
  const from = context.at;
  const to = from + passage.length;
  const around: RuleMatch[] = findSecrets(context.text)
    .filter((s) => s.end > from && s.start < to)
    .map((s) => ({ kind: s.kind, start: Math.max(s.start, from) - from, end: Math.min(s.end, to) - from }));
  return apply(passage, merge([...own, ...around]));
}

/** Add `more` into `into` (counts by kind). */
export function addCounts(into: Partial<Record<SecretKind, number>>, more: Partial<Record<SecretKind, number>>): void {
  for (const [kind, n] of Object.entries(more) as [SecretKind, number][]) into[kind] = (into[kind] ?? 0) + n;
}
