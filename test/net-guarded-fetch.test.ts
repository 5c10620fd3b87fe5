import { afterEach, describe, expect, it, vi } from "vitest";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { guardedFetch } from "../src/net/guarded-fetch.js";
import { vetHost, type Resolver } from "../src/net/ssrf-guard.js";
import { GroundkitError, type ErrorCode } from "../src/core/errors.js";

interface SeenRequest {
  method: string;
  url: string;
  host: string | undefined;
  headers: IncomingMessage["headers"];
  body: string;
}

interface TestServer {
  port: number;
  origin: string;
  requests: SeenRequest[];
  openSockets: () => number;
  close: () => Promise<void>;
}

const servers: TestServer[] = [];

async function startServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        host: req.headers.host,
        headers: req.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      });
      handler(req, res);
    });
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const s: TestServer = {
    port,
    origin: `http://127.0.0.1:${port}`,
    requests,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.push(s);
  return s;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function failure(promise: Promise<unknown>): Promise<GroundkitError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof GroundkitError) return err;
    throw err;
  }
  throw new Error("expected the fetch to fail");
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<GroundkitError> {
  const err = await failure(promise);
  expect(err.code, err.message).toBe(code);
  return err;
}

const LOCAL = { allowPrivateNetwork: true } as const;

describe("guardedFetch", () => {
  it("returns a 200 body with the media type and charset parsed", async () => {
    const html = "<!doctype html><p>héllo 🌍</p>";
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": 'Text/HTML; Charset="UTF-8"' });
      res.end(html);
    });
    const page = await guardedFetch(`${server.origin}/docs/page.html?x=1#frag`, LOCAL);
    expect(page.status).toBe(200);
    expect(page.contentType).toBe("text/html");
    expect(page.charset).toBe("utf-8");
    expect(Buffer.from(page.body).toString("utf8")).toBe(html);
    expect(page.url).toBe(`${server.origin}/docs/page.html?x=1`);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.url).toBe("/docs/page.html?x=1");
    expect(server.requests[0]?.host).toBe(`127.0.0.1:${server.port}`);
  });

  it("reports no charset and an empty media type when the server sends none", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("plain");
    });
    const page = await guardedFetch(`${server.origin}/`, LOCAL);
    expect(page.contentType).toBe("text/plain");
    expect(page.charset).toBeUndefined();

    const bare = await startServer((_req, res) => {
      res.writeHead(200); // node adds no Content-Type of its own
      res.end("ok");
    });
    const untyped = await guardedFetch(`${bare.origin}/`, LOCAL);
    expect(untyped.contentType).toBe("");
    expect(untyped.charset).toBeUndefined();
    expect(Buffer.from(untyped.body).toString()).toBe("ok");
  });

  it("refuses a loopback server without allowPrivateNetwork, before any request", async () => {
    const server = await startServer((_req, res) => res.end("x"));
    const err = await expectCode(guardedFetch(`${server.origin}/`), "SSRF_BLOCKED");
    expect(err.message).toContain("loopback");
    expect(server.requests).toHaveLength(0);
  });

  for (const status of [301, 302, 303, 307, 308]) {
    it(`refuses a ${status} redirect and never requests its target`, async () => {
      const target = await startServer((_req, res) => res.end("target"));
      const origin = await startServer((_req, res) => {
        res.writeHead(status, { location: `${target.origin}/landing?api_key=SECRETLOC` });
        res.end();
      });
      const err = await expectCode(guardedFetch(`${origin.origin}/start`, LOCAL), "REDIRECT_REFUSED");
      expect(err.message).toContain(String(status));
      expect(err.message).not.toContain("SECRETLOC");
      expect(origin.requests).toHaveLength(1);
      expect(target.requests).toHaveLength(0);
    });
  }

  it("refuses a body whose Content-Length exceeds the cap", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-length": "5000" });
      res.end("a".repeat(5000));
    });
    await expectCode(guardedFetch(`${server.origin}/`, { ...LOCAL, maxBytes: 4096 }), "BODY_TOO_LARGE");
  });

  it("refuses a streamed body without Content-Length once it exceeds the cap", async () => {
    let stopped = false;
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" }); // chunked
      let sent = 0;
      const timer = setInterval(() => {
        if (sent >= 200) {
          clearInterval(timer);
          res.end();
          return;
        }
        sent++;
        res.write("b".repeat(1024));
      }, 1);
      res.on("close", () => {
        stopped = true;
        clearInterval(timer);
      });
    });
    await expectCode(guardedFetch(`${server.origin}/`, { ...LOCAL, maxBytes: 10_000 }), "BODY_TOO_LARGE");
    // The stream was aborted, not read to the end.
    await vi.waitFor(() => expect(stopped).toBe(true));
  });

  it("accepts a body of exactly the cap", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      res.write("c".repeat(600));
      res.end("c".repeat(400));
    });
    const page = await guardedFetch(`${server.origin}/`, { ...LOCAL, maxBytes: 1000 });
    expect(page.body.byteLength).toBe(1000);
  });

  it("times out on a slow-drip body (total deadline, not per read)", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.flushHeaders();
      const timer = setInterval(() => res.write("."), 200);
      res.on("close", () => clearInterval(timer));
    });
    await expectCode(guardedFetch(`${server.origin}/`, { ...LOCAL, timeoutMs: 500 }), "FETCH_TIMEOUT");
  });

  it("times out when the server never answers", async () => {
    const server = await startServer(() => {
      /* never respond */
    });
    await expectCode(guardedFetch(`${server.origin}/`, { ...LOCAL, timeoutMs: 300 }), "FETCH_TIMEOUT");
  });

  it("times out when DNS never answers", async () => {
    const resolver: Resolver = () => new Promise(() => undefined);
    await expectCode(guardedFetch("http://hang.test/", { ...LOCAL, timeoutMs: 300, resolver }), "FETCH_TIMEOUT");
  });

  it("fails with the status on 404 and 500", async () => {
    const server = await startServer((req, res) => {
      res.writeHead(req.url === "/missing" ? 404 : 500);
      res.end("nope");
    });
    const err404 = await expectCode(guardedFetch(`${server.origin}/missing`, LOCAL), "FETCH_FAILED");
    expect(err404.message).toContain("404");
    const err500 = await expectCode(guardedFetch(`${server.origin}/boom`, LOCAL), "FETCH_FAILED");
    expect(err500.message).toContain("500");
  });

  it("fails on a refused connection", async () => {
    const server = await startServer((_req, res) => res.end());
    const port = server.port;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    await expectCode(guardedFetch(`http://127.0.0.1:${port}/`, LOCAL), "FETCH_FAILED");
  });

  it("refuses a compressed body it did not ask for", async () => {
    const server = await startServer((req, res) => {
      res.writeHead(200, { "content-type": "text/plain", "content-encoding": "gzip" });
      res.end("not really gzip");
    });
    await expectCode(guardedFetch(`${server.origin}/`, LOCAL), "FETCH_FAILED");
    expect(server.requests[0]?.headers["accept-encoding"]).toBe("identity");
  });

  it("refuses credential URLs before any request and never echoes the secret", async () => {
    const server = await startServer((_req, res) => res.end("x"));
    const port = server.port;
    const urls = [
      `http://127.0.0.1:${port}/?api_key=TOPSECRET1`,
      `http://127.0.0.1:${port}/?page=2&Access-Token=TOPSECRET1`,
      `http://user:TOPSECRET1@127.0.0.1:${port}/`,
      `http://127.0.0.1:${port}/?X-Amz-Signature=TOPSECRET1`,
    ];
    for (const url of urls) {
      const err = await expectCode(guardedFetch(url, LOCAL), "URL_REFUSED");
      expect(err.message).not.toContain("TOPSECRET1");
      expect(JSON.stringify(err.detail)).not.toContain("TOPSECRET1");
    }
    expect(server.requests).toHaveLength(0);
  });

  it("never puts a query value in a failure message, whatever the parameter's name", async () => {
    const refused = await expectCode(guardedFetch("http://127.0.0.1:1/x?token2=SECRETVALUE&page=SECRETPAGE", LOCAL), "FETCH_FAILED");
    expect(refused.message).toContain("http://127.0.0.1:1/x?token2=REDACTED&page=REDACTED");
    for (const err of [refused]) {
      expect(err.message).not.toMatch(/SECRET/);
      expect(JSON.stringify(err.detail)).not.toMatch(/SECRET/);
    }

    const server = await startServer((req, res) => {
      if (req.url?.startsWith("/moved")) res.writeHead(302, { location: "/next?code=SECRETNEXT" }).end();
      else res.writeHead(404).end();
    });
    const missing = await expectCode(guardedFetch(`${server.origin}/gone?q=SECRETQUERY`, LOCAL), "FETCH_FAILED");
    const moved = await expectCode(guardedFetch(`${server.origin}/moved?q=SECRETQUERY`, LOCAL), "REDIRECT_REFUSED");
    const slow = await expectCode(
      guardedFetch("http://hang.test/?q=SECRETQUERY", { ...LOCAL, timeoutMs: 200, resolver: () => new Promise(() => undefined) }),
      "FETCH_TIMEOUT",
    );
    const refusedShape = await expectCode(guardedFetch("ftp://127.0.0.1/?q=SECRETQUERY", LOCAL), "URL_REFUSED");
    for (const err of [missing, moved, slow, refusedShape]) {
      expect(err.message, err.code).not.toMatch(/SECRET/);
      expect(JSON.stringify(err.detail), err.code).not.toMatch(/SECRET/);
    }
    expect(moved.message).toContain("/next?code=REDACTED");
  });

  it("keeps non-credential query values in the fetched resource's URL (it is the source's identity)", async () => {
    const server = await startServer((_req, res) => res.end("x"));
    const page = await guardedFetch(`${server.origin}/p?page=2#frag`, LOCAL);
    expect(page.url).toBe(`${server.origin}/p?page=2`);
  });

  it("refuses non-http schemes", async () => {
    await expectCode(guardedFetch("ftp://127.0.0.1/file.txt", LOCAL), "URL_REFUSED");
    await expectCode(guardedFetch("file:///etc/passwd", LOCAL), "URL_REFUSED");
  });

  it("connects to the vetted address and never resolves the name a second time (DNS rebinding)", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain" });
      res.end("pinned");
    });
    let calls = 0;
    const resolver: Resolver = async () => {
      calls++;
      // First answer passes the check; any later answer points somewhere else entirely.
      return calls === 1 ? [{ address: "127.0.0.1", family: 4 }] : [{ address: "10.255.255.1", family: 4 }];
    };
    const page = await guardedFetch(`http://rebind.test:${server.port}/p`, { ...LOCAL, resolver, timeoutMs: 5000 });
    expect(Buffer.from(page.body).toString()).toBe("pinned");
    expect(calls).toBe(1);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.host).toBe(`rebind.test:${server.port}`);
  });

  it("refuses a name that resolves to a disallowed address, without connecting", async () => {
    const server = await startServer((_req, res) => res.end("x"));
    const resolver: Resolver = async () => [{ address: "127.0.0.1", family: 4 }];
    const err = await expectCode(guardedFetch(`http://intranet.test:${server.port}/`, { resolver }), "SSRF_BLOCKED");
    expect(err.message).toContain("intranet.test");
    expect(server.requests).toHaveLength(0);
  });

  it("sends POST bodies and headers (embedding-provider calls)", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
      res.end('{"ok":true}');
    });
    const page = await guardedFetch(`${server.origin}/v1/embeddings`, {
      ...LOCAL,
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer k" },
      body: '{"input":["a"]}',
    });
    expect(page.contentType).toBe("application/json");
    expect(page.charset).toBe("utf-8");
    expect(server.requests[0]?.method).toBe("POST");
    expect(server.requests[0]?.body).toBe('{"input":["a"]}');
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");
  });

  it("closes its connection after each fetch", async () => {
    const server = await startServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/plain", connection: "keep-alive" });
      res.end("kept?");
    });
    await guardedFetch(`${server.origin}/`, LOCAL);
    await vi.waitFor(() => expect(server.openSockets()).toBe(0));
  });
});

describe("vetHost", () => {
  it("classifies IP literals directly, without DNS", async () => {
    const resolver: Resolver = async () => {
      throw new Error("must not be called");
    };
    await expect(vetHost("127.0.0.1", { allowPrivateNetwork: true, resolver })).resolves.toEqual({
      address: "127.0.0.1",
      family: 4,
    });
    await expect(vetHost("[::1]", { allowPrivateNetwork: true, resolver })).resolves.toEqual({ address: "::1", family: 6 });
    await expect(vetHost("93.184.216.34", { allowPrivateNetwork: false, resolver })).resolves.toEqual({
      address: "93.184.216.34",
      family: 4,
    });
    const err = await expectCode(vetHost("[::ffff:7f00:1]", { allowPrivateNetwork: false, resolver }), "SSRF_BLOCKED");
    expect(err.message).toContain("loopback");
  });

  it("refuses when ANY resolved address is disallowed", async () => {
    const resolver: Resolver = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
      { address: "10.0.0.7", family: 4 },
    ];
    const err = await expectCode(vetHost("mixed.test", { allowPrivateNetwork: false, resolver }), "SSRF_BLOCKED");
    expect(err.message).toContain("mixed.test");
    expect(err.message).toContain("private");
    expect(err.message).not.toContain("10.0.0.7");
  });

  it("returns the first address when all are allowed, resolving once", async () => {
    let calls = 0;
    const resolver: Resolver = async () => {
      calls++;
      return [
        { address: "2606:2800:220:1:248:1893:25c8:1946", family: 6 },
        { address: "93.184.216.34", family: 4 },
      ];
    };
    await expect(vetHost("example.test", { allowPrivateNetwork: false, resolver })).resolves.toEqual({
      address: "2606:2800:220:1:248:1893:25c8:1946",
      family: 6,
    });
    expect(calls).toBe(1);
  });

  it("refuses metadata and link-local addresses even with allowPrivateNetwork", async () => {
    for (const address of ["169.254.169.254", "fd00:ec2::254", "::ffff:169.254.169.254", "fe80::1", "64:ff9b::a9fe:a9fe"]) {
      const resolver: Resolver = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
      const err = await expectCode(vetHost("meta.test", { allowPrivateNetwork: true, resolver }), "SSRF_BLOCKED");
      expect(err.message).not.toContain(address);
    }
    await expectCode(vetHost("169.254.169.254", { allowPrivateNetwork: true }), "SSRF_BLOCKED");
  });

  // Issue 12 item 7: GCP's IPv6 metadata server is inside fc00::/7 and Azure's WireServer is a public address.
  const METADATA_ANSWERS = ["fd20:ce::254", "168.63.129.16", "::ffff:168.63.129.16", "64:ff9b::a83f:8110", "fd00:ec2::23"];

  for (const allowPrivateNetwork of [false, true]) {
    it(`refuses GCP's and Azure's metadata addresses ${allowPrivateNetwork ? "with" : "without"} allowPrivateNetwork, as literals and as answers`, async () => {
      for (const address of METADATA_ANSWERS) {
        const resolver: Resolver = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
        const err = await expectCode(vetHost("innocent.test", { allowPrivateNetwork, resolver }), "SSRF_BLOCKED");
        expect(err.detail).toMatchObject({ addressClass: "metadata" });
        expect(err.message).not.toContain(address);
        const literal = address.includes(":") ? `[${address}]` : address;
        const direct = await expectCode(vetHost(literal, { allowPrivateNetwork }), "SSRF_BLOCKED");
        expect(direct.detail).toMatchObject({ addressClass: "metadata" });
      }
    });

    it(`guardedFetch never connects to a name resolving to a metadata address (${allowPrivateNetwork ? "with" : "without"} the opt-in)`, async () => {
      for (const address of ["fd20:ce::254", "168.63.129.16"]) {
        const resolver: Resolver = async () => [{ address, family: address.includes(":") ? 6 : 4 }];
        const err = await expectCode(
          guardedFetch("http://looks-public.test/computeMetadata/v1/", { allowPrivateNetwork, resolver, timeoutMs: 5000 }),
          "SSRF_BLOCKED",
        );
        expect(err.message).toMatch(/metadata/);
      }
    });
  }

  it("refuses metadata host names before any DNS query, even when they would resolve to a public address", async () => {
    let calls = 0;
    const resolver: Resolver = async () => {
      calls++;
      return [{ address: "93.184.216.34", family: 4 }];
    };
    for (const host of ["metadata.google.internal", "METADATA.GOOGLE.INTERNAL.", "metadata", "instance-data", "metadata.tencentyun.com"]) {
      const err = await expectCode(vetHost(host, { allowPrivateNetwork: true, resolver }), "SSRF_BLOCKED");
      expect(err.detail).toMatchObject({ addressClass: "metadata" });
    }
    await expectCode(guardedFetch("http://metadata.google.internal/computeMetadata/v1/", { ...LOCAL, resolver }), "SSRF_BLOCKED");
    expect(calls).toBe(0);
    await expect(vetHost("metadata.example.com", { allowPrivateNetwork: false, resolver })).resolves.toBeDefined();
    expect(calls).toBe(1);
  });

  it("fails cleanly when the name does not resolve", async () => {
    const resolver: Resolver = async () => {
      throw Object.assign(new Error("getaddrinfo ENOTFOUND nowhere.test"), { code: "ENOTFOUND" });
    };
    await expectCode(vetHost("nowhere.test", { allowPrivateNetwork: false, resolver }), "FETCH_FAILED");
    await expectCode(vetHost("empty.test", { allowPrivateNetwork: false, resolver: async () => [] }), "FETCH_FAILED");
  });

  it("refuses a resolver answer that is not an IP address", async () => {
    const resolver: Resolver = async () => [{ address: "localhost", family: 4 }];
    await expectCode(vetHost("odd.test", { allowPrivateNetwork: true, resolver }), "SSRF_BLOCKED");
  });

  it("uses the system resolver by default (localhost is loopback)", async () => {
    await expectCode(vetHost("localhost", { allowPrivateNetwork: false }), "SSRF_BLOCKED");
    const vetted = await vetHost("localhost", { allowPrivateNetwork: true });
    expect(["127.0.0.1", "::1"]).toContain(vetted.address);
  });
});
