/**
 * The guard helpers on their own (`origin-guard`, path scrubbing): Host and
 * Origin allow-lists, loopback detection, constant-time bearer comparison, and
 * the scrubber that keeps server paths out of error messages.
 */
import { describe, expect, it } from "vitest";
import { PathScrubber, toErrorEnvelope } from "../src/service/errors-to-http.js";
import { allowedHostValues, bearerMatches, isLoopbackHost, originAllowed } from "../src/service/http-guards.js";
import { GroundkitError } from "../src/core/errors.js";

describe("Host and Origin allow-lists", () => {
  it("accepts the loopback names with the listening port only", () => {
    const hosts = allowedHostValues("127.0.0.1", 8765, []);
    expect([...hosts].sort()).toEqual(["127.0.0.1:8765", "[::1]:8765", "localhost:8765"]);
    expect(hosts.has("127.0.0.1")).toBe(false);
    expect(hosts.has("evil.example:8765")).toBe(false);
  });

  it("adds a concrete bind address and extra names, not a wildcard", () => {
    expect(allowedHostValues("192.168.1.5", 80, ["docs.internal"])).toEqual(
      new Set([
        "127.0.0.1:80",
        "127.0.0.1",
        "localhost:80",
        "localhost",
        "[::1]:80",
        "[::1]",
        "192.168.1.5:80",
        "192.168.1.5",
        "docs.internal:80",
        "docs.internal",
      ]),
    );
    expect(allowedHostValues("0.0.0.0", 9000, []).has("0.0.0.0:9000")).toBe(false);
    expect(allowedHostValues("::", 9000, ["proxy.example:443"]).has("proxy.example:443")).toBe(true);
  });

  it("accepts an Origin only for an allowed host", () => {
    const hosts = allowedHostValues("127.0.0.1", 8765, []);
    expect(originAllowed("http://127.0.0.1:8765", hosts)).toBe(true);
    expect(originAllowed("http://LOCALHOST:8765", hosts)).toBe(true);
    expect(originAllowed("http://127.0.0.1:8766", hosts)).toBe(false);
    expect(originAllowed("https://evil.example", hosts)).toBe(false);
    expect(originAllowed("null", hosts)).toBe(false);
    expect(originAllowed("http://127.0.0.1:8765/path", hosts)).toBe(false);
  });

  it("knows loopback addresses", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopbackHost(h), h).toBe(true);
    for (const h of ["0.0.0.0", "::", "192.168.0.1", "example.com", "127.0.0.1.example.com"]) expect(isLoopbackHost(h), h).toBe(false);
  });
});

describe("bearer tokens", () => {
  it("matches only the exact secret", () => {
    expect(bearerMatches("Bearer s3cret-token", "s3cret-token")).toBe(true);
    expect(bearerMatches("bearer s3cret-token", "s3cret-token")).toBe(true);
    expect(bearerMatches("Bearer s3cret-tokenX", "s3cret-token")).toBe(false);
    expect(bearerMatches("Bearer s3cret", "s3cret-token")).toBe(false);
    expect(bearerMatches("Basic s3cret-token", "s3cret-token")).toBe(false);
    expect(bearerMatches("s3cret-token", "s3cret-token")).toBe(false);
    expect(bearerMatches(undefined, "s3cret-token")).toBe(false);
    expect(bearerMatches("Bearer ", "")).toBe(false);
  });
});

describe("error envelopes", () => {
  const scrubber = new PathScrubber("/srv/index", () => ["/srv/docs"]);
  const logs: string[] = [];
  const log = {
    debug: () => {},
    info: () => {},
    warn: () => {},
    error: (m: string, f?: Record<string, unknown>) => logs.push(`${m} ${JSON.stringify(f)}`),
  };

  it("replaces the index dir and paths outside the corpus, keeps corpus paths and URLs", () => {
    expect(scrubber.scrub("/srv/index/a.sqlite3 is not a groundkit index.")).toBe("<index-dir>/a.sqlite3 is not a groundkit index.");
    expect(scrubber.scrub("Cannot read /etc/shadow: denied")).toBe("Cannot read <path>: denied");
    expect(scrubber.scrub("/srv/docs/guide.md does not exist.")).toBe("/srv/docs/guide.md does not exist.");
    expect(scrubber.scrub("/srv/docs2/x.md is elsewhere")).toBe("<path> is elsewhere");
    expect(scrubber.scrub("fetch https://example.com/a/b failed; see guides/x.md")).toBe(
      "fetch https://example.com/a/b failed; see guides/x.md",
    );
  });

  it("maps catalogue errors to their status and hides internal errors behind the request id", () => {
    const notFound = toErrorEnvelope(new GroundkitError("CHUNK_NOT_FOUND", "No chunk x."), { requestId: "r1", scrubber, log });
    expect(notFound).toEqual({
      status: 404,
      body: { error: { code: "CHUNK_NOT_FOUND", message: "No chunk x.", hint: expect.any(String) }, request_id: "r1" },
    });
    const boom = toErrorEnvelope(new TypeError("cannot read x of undefined at /srv/app/secret.js"), { requestId: "r2", scrubber, log });
    expect(boom.status).toBe(500);
    expect(boom.body.error.code).toBe("INTERNAL");
    expect(boom.body.error.message).toBe("Internal error; the server log has the details under request id r2.");
    expect(logs.join("\n")).toContain("cannot read x of undefined");
  });
});
