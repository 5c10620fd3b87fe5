/**
 * Lexical term handling shared by indexing and querying, so both sides see the
 * same tokens. User text is never handed to FTS5 raw: queries are tokenized
 * and rebuilt from quoted terms, so FTS5 syntax in a query is just text.
 *
 * CJK scripts do not separate words with spaces, and unicode61 would make a
 * whole run one token; we index CJK runs as overlapping character bigrams
 * (the classic CJK analyzer approach), which also matches two-character words.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;

/** Most terms a query may contribute; more are dropped (they add cost, not precision). */
export const MAX_QUERY_TERMS = 64;

function bigrams(run: string): string[] {
  const chars = Array.from(run);
  if (chars.length === 1) return chars;
  const out: string[] = [];
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i]! + chars[i + 1]!);
  return out;
}

/** Text as written to the FTS body column: CJK runs replaced by space-separated bigrams. */
export function prepareIndexText(text: string): string {
  if (!CJK_CHAR.test(text)) return text;
  return text.replace(CJK_RUN, (run) => ` ${bigrams(run).join(" ")} `);
}

/** The distinct search terms of a query, in order of first appearance, lowercased. */
export function queryTerms(query: string): string[] {
  const seen = new Set<string>();
  for (const word of query.match(WORD) ?? []) {
    const lower = word.toLowerCase();
    if (!CJK_CHAR.test(lower)) {
      seen.add(lower);
      continue;
    }
    // Split mixed runs: Latin parts are words, CJK parts become bigrams.
    for (const part of lower.split(/([\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+)/u)) {
      if (!part) continue;
      if (CJK_CHAR.test(part)) for (const b of bigrams(part)) seen.add(b);
      else seen.add(part);
    }
    if (seen.size >= MAX_QUERY_TERMS) break;
  }
  return [...seen].slice(0, MAX_QUERY_TERMS);
}

/**
 * An FTS5 MATCH expression ORing the quoted terms, or undefined when the query
 * has no searchable term. A lone CJK character becomes a prefix query so it
 * still matches the bigrams that start with it.
 */
export function buildFtsQuery(terms: string[]): string | undefined {
  if (terms.length === 0) return undefined;
  return terms
    .map((t) => {
      const quoted = `"${t.replace(/"/g, '""')}"`;
      return CJK_CHAR.test(t) && Array.from(t).length === 1 ? `${quoted}*` : quoted;
    })
    .join(" OR ");
}
