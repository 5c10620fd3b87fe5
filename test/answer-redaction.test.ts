/**
 * Redaction: every kind of secret is replaced by its typed placeholder and counted; prose is left alone;
 * a window of a document is redacted seeing the document around it.
 */
import { generateKeyPairSync } from "node:crypto";
import { describe, expect, it } from "vitest";
import { redactPassage, redactSecrets } from "../src/answer/redaction.js";
import { findQuote } from "../src/answer/quote-match.js";

const PEM = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\nQWERTYUIOP\n-----END RSA PRIVATE KEY-----";
const JWT = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";

const CASES: Array<[string, string, string]> = [
  ["private-key", `key:\n${PEM}\nend`, "MIIEowIBAAKCAQEA"],
  ["jwt", `Authorization: Bearer ${JWT}`, JWT],
  ["aws-access-key", "use AKIAIOSFODNN7EXAMPLE here", "AKIAIOSFODNN7EXAMPLE"],
  ["github-token", "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB", "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"],
  ["gitlab-token", "glpat-abcdefghij0123456789", "glpat-abcdefghij0123456789"],
  ["slack-token", "xoxb-123456789012-abcdefghijkl", "xoxb-123456789012-abcdefghijkl"],
  ["google-api-key", "AIzaSyA1234567890abcdefghijklmnopqrstuv", "AIzaSyA1234567890abcdefghijklmnopqrstuv"],
  ["stripe-key", "sk_live_abcdefghijklmnop1234", "sk_live_abcdefghijklmnop1234"],
  ["openai-key", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx"],
  ["anthropic-key", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz", "sk-ant-api03-abcdefghijklmnopqrstuvwxyz"],
  ["npm-token", "npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789"],
  ["url-password", "postgres://admin:s3cr3tpass@db.internal:5432/app", "s3cr3tpass"],
  ["credential", 'db_password = "hunter2-horse"', "hunter2-horse"],
  ["credential", "API_KEY: abcd1234efgh", "abcd1234efgh"],
];

describe("redactSecrets", () => {
  it.each(CASES)("replaces a %s", (kind, text, secret) => {
    const r = redactSecrets(text);
    expect(r.text).not.toContain(secret);
    expect(r.text).toContain(`[REDACTED:${kind}]`);
    expect(r.counts[kind as keyof typeof r.counts]).toBeGreaterThanOrEqual(1);
  });

  it("keeps the name of an assignment and the host of a URL, and counts each secret once", () => {
    const r = redactSecrets("password=abcdefgh and https://bob:pa55word@example.com/x");
    expect(r.text).toBe("password=[REDACTED:credential] and https://bob:[REDACTED:url-password]@example.com/x");
    expect(r.counts).toEqual({ credential: 1, "url-password": 1 });
  });

  it("leaves prose without secrets as it is", () => {
    const text = "Backups are kept for 30 days. The token bucket refills slowly. See https://example.com/docs.";
    expect(redactSecrets(text)).toEqual({ text, counts: {} });
  });
});

describe("findQuote", () => {
  it("forgives whitespace only, and reports code-point offsets", () => {
    expect(findQuote("a 😀  b\n c", "😀 b c")).toEqual([{ start: 2, end: 9 }]);
    expect(findQuote("Kept for 30 days.", "kept for 30 days")).toEqual([]);
    expect(findQuote("It's here", "It’s here")).toEqual([]);
    expect(findQuote("ab ab ab", "ab")).toHaveLength(3);
    expect(findQuote("text", "   ")).toEqual([]);
  });
});

describe("redactPassage over windows of a document (issue 25 #3)", () => {
  const key = generateKeyPairSync("rsa", { modulusLength: 4096 }).privateKey.export({ type: "pkcs1", format: "pem" }).toString();
  const doc = `# Keys\n\nThe deploy key follows.\n\n${key}\nRotate it yearly. The token is password=${"s3cr3t-".repeat(3)}x.\n`;
  const body = key.split("\n").filter((l) => l.length > 0 && !l.startsWith("-----"));
  const leaks = (text: string): string[] => body.flatMap((l) => (l.length >= 24 ? [l.slice(0, 24), l.slice(-24)] : [])).filter((f) => text.includes(f));

  it("withholds every piece of a key from any window that holds one, markers in it or not", () => {
    let windows = 0;
    for (let at = 0; at < doc.length - 50; at += 97) {
      for (const len of [120, 700, 2400]) {
        const window = doc.slice(at, at + len);
        const r = redactPassage(window, { text: doc, at });
        expect(leaks(r.text), `window ${at}+${len}`).toEqual([]);
        expect(r.text).not.toContain("s3cr3t-s3cr3t");
        windows++;
      }
    }
    expect(windows).toBeGreaterThan(100);
  });

  it("withholds a body-only window without any context, and counts what it replaced", () => {
    const mid = doc.indexOf(body[10]!);
    const window = doc.slice(mid + 5, mid + 5 + 64 * 8);
    const r = redactPassage(window);
    expect(leaks(r.text)).toEqual([]);
    expect(r.counts).toEqual({ "key-material": 1 });
  });

  it("falls back to the passage alone when the context does not hold it where it says", () => {
    const r = redactPassage("password=hunter2-horse", { text: "something else entirely", at: 0 });
    expect(r.text).toBe("password=[REDACTED:credential]");
  });
});
