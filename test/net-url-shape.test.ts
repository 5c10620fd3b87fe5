import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { checkUrlShape, hasUrlScheme, isUrlSource, redactUrl, sanitizeUrl } from "../src/net/url-shape.js";
import { GroundkitError } from "../src/core/errors.js";

function refusal(raw: string): GroundkitError {
  try {
    checkUrlShape(raw);
  } catch (err) {
    if (err instanceof GroundkitError) return err;
    throw err;
  }
  throw new Error(`expected ${raw} to be refused`);
}

/** The refusal of a URL carrying `name=S3CR3TVALUE` among harmless parameters; the value is never echoed. */
function refusedParameter(name: string): GroundkitError {
  const err = refusal(`https://example.com/path?page=1&${name}=S3CR3TVALUE&q=x`);
  expect(err.code, name).toBe("URL_REFUSED");
  expect(err.message, name).not.toContain("S3CR3TVALUE");
  expect(JSON.stringify(err.detail), name).not.toContain("S3CR3TVALUE");
  return err;
}

describe("checkUrlShape", () => {
  it("accepts plain http(s) URLs and returns them parsed", () => {
    const url = checkUrlShape("https://Example.com:8443/docs/a.html?page=2&q=hello+world#intro");
    expect(url.hostname).toBe("example.com");
    expect(url.port).toBe("8443");
    expect(url.search).toBe("?page=2&q=hello+world");
    expect(checkUrlShape("http://127.0.0.1:8080/").hostname).toBe("127.0.0.1");
    expect(checkUrlShape("http://[::1]/x").hostname).toBe("[::1]");
  });

  it("accepts parameter names that merely resemble credential names", () => {
    for (const name of ["q", "page", "code", "keyword", "monkey", "tokenizer", "keys", "author", "sessions", "signed", "sort", "passage", "passenger", "side", "sidebar", "access", "subscription", "keyid"]) {
      expect(() => checkUrlShape(`https://example.com/?${name}=1`), name).not.toThrow();
    }
  });

  it("refuses schemes other than http and https", () => {
    for (const raw of ["ftp://example.com/file.txt", "file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "gopher://example.com/", "ws://example.com/"]) {
      expect(refusal(raw).code, raw).toBe("URL_REFUSED");
    }
  });

  it("refuses strings that do not parse", () => {
    for (const raw of ["", "not a url", "https://exa mple.com/", "http://[::1/", "//example.com/x"]) {
      const err = refusal(raw);
      expect(err.code, raw).toBe("URL_REFUSED");
    }
  });

  it("refuses userinfo and never echoes it", () => {
    const cases: Array<[string, string]> = [
      ["https://user:hunter2pass@example.com/", "https://example.com/"],
      ["https://hunter2pass@example.com/a", "https://example.com/a"],
      ["http://:hunter2pass@example.com/", "http://example.com/"],
    ];
    for (const [raw, shown] of cases) {
      const err = refusal(raw);
      expect(err.code).toBe("URL_REFUSED");
      expect(err.message).not.toContain("hunter2pass");
      expect(JSON.stringify(err.detail)).not.toContain("hunter2pass");
      expect(err.message).toContain(shown);
    }
  });

  it("refuses credential-shaped query parameters in any spelling and never echoes the value", () => {
    const names = [
      "token",
      "access_token",
      "Access-Token",
      "ACCESS_TOKEN",
      "api_key",
      "apiKey",
      "API-KEY",
      "api%5Fkey", // percent-encoded underscore
      "key",
      "secret",
      "client_secret",
      "password",
      "passwd",
      "pwd",
      "auth",
      "Authorization",
      "signature",
      "sig",
      "session",
      "sessionid",
      "session_token",
      "private_key",
      "credential",
      "credentials",
      "jwt",
      "bearer",
      "X-Amz-Signature",
      "X-Amz-Credential",
      "X-Amz-Security-Token",
      "X-Goog-Signature",
      "refresh_token",
      "id_token",
      "githubToken",
      "db_password",
      "webhook_secret",
      "stripe_apikey",
      "auth[token]",
      "auth.token",
    ];
    for (const name of names) expect(refusedParameter(name).message, name).toContain("REDACTED");
  });

  // Issue 12 item 10: these slipped through and their values were stored as the source.
  it("refuses pass, passphrase, access keys, subscription keys, auth_key and session ids, in any spelling", () => {
    const names = [
      "pass",
      "PASS",
      "passphrase",
      "key_passphrase",
      "access_key",
      "access-key",
      "AccessKey",
      "aws_secret_access_key",
      "AWSAccessKeyId",
      "awsaccesskeyid",
      "aws-access-key-id",
      "subscription-key",
      "subscription_key",
      "Ocp-Apim-Subscription-Key",
      "auth_key",
      "auth-key",
      "secret_key",
      "sid",
      "SID",
      "PHPSESSID",
      "phpsessid",
      "jsessionid",
      "JSESSIONID",
      "ASP.NET_SessionId",
    ];
    for (const name of names) expect(refusedParameter(name).message, name).toContain(JSON.stringify(name));
  });

  it("refuses ;jsessionid= and other credential path parameters and never echoes their value", () => {
    for (const raw of [
      "https://example.com/app;jsessionid=S3CR3TVALUE",
      "https://example.com/app;JSESSIONID=S3CR3TVALUE?page=1",
      "https://example.com/a;v=1;jsessionid=S3CR3TVALUE/b.html",
      "https://example.com/x;PHPSESSID=S3CR3TVALUE",
      "https://example.com/x;token=S3CR3TVALUE",
    ]) {
      const err = refusal(raw);
      expect(err.code, raw).toBe("URL_REFUSED");
      expect(err.message, raw).not.toContain("S3CR3TVALUE");
      expect(JSON.stringify(err.detail), raw).not.toContain("S3CR3TVALUE");
    }
    expect(refusal("https://example.com/app;jsessionid=abc").message).toContain('"jsessionid"');
    expect(checkUrlShape("https://example.com/a;v=1/b").pathname).toBe("/a;v=1/b");
  });

  it("shows no query value in a refusal of any kind, credential-shaped or not", () => {
    for (const raw of ["ftp://example.com/?token2=S3CR3TVALUE", "https://user:pw@example.com/?page=S3CR3TVALUE", "https://example.com/?api_key=1&q=S3CR3TVALUE"]) {
      const err = refusal(raw);
      expect(err.message, raw).not.toContain("S3CR3TVALUE");
      expect(JSON.stringify(err.detail), raw).not.toContain("S3CR3TVALUE");
    }
  });

  it("refuses a credential-shaped parameter even without a value, and one in the fragment", () => {
    expect(refusal("https://example.com/?api_key").code).toBe("URL_REFUSED");
    const err = refusal("https://example.com/cb#access_token=S3CR3TVALUE&state=1");
    expect(err.code).toBe("URL_REFUSED");
    expect(err.message).not.toContain("S3CR3TVALUE");
  });

  it("names the offending parameter in the message", () => {
    expect(refusal("https://example.com/?Access-Token=abc").message).toContain('"Access-Token"');
  });
});

describe("sanitizeUrl", () => {
  it("drops userinfo and the fragment, redacts credential values, keeps everything else as written", () => {
    expect(sanitizeUrl("https://u:p@example.com/a?api_key=s3cret&q=a+b%20c&Access-Token=t0k#frag")).toBe(
      "https://example.com/a?api_key=REDACTED&q=a+b%20c&Access-Token=REDACTED",
    );
    expect(sanitizeUrl("http://example.com/?token")).toBe("http://example.com/?token=REDACTED");
    expect(sanitizeUrl("http://example.com/plain?x=1")).toBe("http://example.com/plain?x=1");
    expect(sanitizeUrl("http://example.com/#access_token=s3cret")).toBe("http://example.com/");
  });

  it("turns unparseable input into a placeholder", () => {
    expect(sanitizeUrl("not a url with s3cret")).toBe("<invalid url>");
    expect(sanitizeUrl("")).toBe("<invalid url>");
  });

  it("never throws and never keeps a secret value, whatever the input", () => {
    const secret = "Zq9SECRETzq9";
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom("token", "api_key", "X-Amz-Signature", "password", "sig"),
        fc.string(),
        (prefix, name, suffix) => {
          const out1 = sanitizeUrl(prefix + suffix);
          expect(typeof out1).toBe("string");
          const out2 = sanitizeUrl(`https://example.com/${encodeURIComponent(prefix)}?${name}=${secret}&z=${encodeURIComponent(suffix)}`);
          expect(out2).not.toContain(secret);
          const out3 = sanitizeUrl(`https://user:${secret}@example.com/#${secret}`);
          expect(out3).not.toContain(secret);
        },
      ),
    );
  });
});

describe("redactUrl", () => {
  it("replaces every query and path-parameter value, drops userinfo and fragment, keeps names and path", () => {
    expect(redactUrl("https://u:p@example.com/a;jsessionid=X/b?token2=s3cret&q=a+b&flag&=v#frag")).toBe(
      "https://example.com/a;jsessionid=REDACTED/b?token2=REDACTED&q=REDACTED&REDACTED&=REDACTED",
    );
    expect(redactUrl("http://127.0.0.1:1/x")).toBe("http://127.0.0.1:1/x");
    expect(redactUrl("http://example.com/a;b/c")).toBe("http://example.com/a;b/c");
    expect(redactUrl("file:///etc/passwd")).toBe("file:///etc/passwd");
    expect(redactUrl("not a url ?token=s3cret")).toBe("<invalid url>");
  });

  it("never throws and never keeps a query or path-parameter value, whatever the name", () => {
    const secret = "Zq9SECRETzq9";
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.string(), (prefix, name, suffix) => {
        expect(typeof redactUrl(prefix + secret + suffix)).toBe("string");
        const n = encodeURIComponent(name);
        const out = redactUrl(
          `https://example.com/${encodeURIComponent(prefix)};${n}=${secret}?${n}=${secret}&z=${encodeURIComponent(suffix)}&${secret}`,
        );
        expect(out).not.toContain(secret);
      }),
    );
  });
});

describe("hasUrlScheme", () => {
  it("sends every scheme-shaped input to the URL checks and leaves paths alone", () => {
    for (const s of ["file:///etc/passwd", "FILE:///etc/passwd", "file:/etc/passwd", "ftp://h/x", "gopher://h/", "http://h/", "svn+ssh://h/r"]) {
      expect(hasUrlScheme(s), s).toBe(true);
    }
    for (const s of ["docs/readme.md", "./file:/x", "/etc/passwd", "notes:2024.md", "C:\\docs\\a.md", "docs/http://x"]) {
      expect(hasUrlScheme(s), s).toBe(false);
    }
  });
});

describe("isUrlSource", () => {
  it("recognizes http(s) URLs case-insensitively and nothing else", () => {
    expect(isUrlSource("http://example.com")).toBe(true);
    expect(isUrlSource("HTTPS://example.com/x")).toBe(true);
    expect(isUrlSource("ftp://example.com")).toBe(false);
    expect(isUrlSource("docs/http://x")).toBe(false);
    expect(isUrlSource("http:/example.com")).toBe(false);
    expect(isUrlSource("./README.md")).toBe(false);
  });
});
