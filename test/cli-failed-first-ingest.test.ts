/**
 * A first ingest that indexes nothing leaves nothing behind (issue 29): no empty collection
 * after a URL refused as UNSUPPORTED_TYPE or a folder of unsupported files, and nothing at all
 * (no index dir, no lock file) after a mistyped path. Through the real CLI, with a real HTTP
 * server on 127.0.0.1 serving an SVG.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { grk, grkAsync, tempDir } from "./support/cli.js";

const SVG = '<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n';

let dir: string;
let cleanup: () => void;
let server: Server;
let base: string;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir("grk-failed-first-"));
  mkdirSync(join(dir, "icons"));
  writeFileSync(join(dir, "icons", "logo.svg"), SVG);
  server = createServer((_req, res) => res.writeHead(200, { "content-type": "image/svg+xml" }).end(SVG));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  cleanup();
});
afterEach(() => {
  // Each case starts without an index dir.
  expect(grk(["collections"], { cwd: dir }).stdout).toContain("no collections");
});

const indexFiles = (): string[] => (existsSync(join(dir, ".groundkit")) ? readdirSync(join(dir, ".groundkit")) : []);

describe("a failed first ingest", () => {
  it("of a mistyped path writes nothing: no collection, no index dir, no lock file", () => {
    const res = grk(["ingest", "docz"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain("error[SOURCE_NOT_FOUND]");
    expect(res.stderr).toContain("was not created");
    expect(existsSync(join(dir, ".groundkit"))).toBe(false);
  });

  it("of a URL refused as UNSUPPORTED_TYPE leaves no collection", async () => {
    const res = await grkAsync(["ingest", `${base}/logo.svg`, "--allow-private-network"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stdout).toContain("UNSUPPORTED_TYPE");
    expect(indexFiles().filter((f) => f.startsWith("default.sqlite3"))).toEqual([]);
  });

  it("of a folder of unsupported files leaves no collection and says so", () => {
    const res = grk(["ingest", "icons"], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("icons/logo.svg");
    expect(res.stderr).toContain("nothing was indexed, so collection 'default' was not created");
    expect(indexFiles().filter((f) => f.startsWith("default.sqlite3"))).toEqual([]);
  });
});

describe("an ingest into an existing collection", () => {
  it("keeps the collection when a later run indexes nothing", () => {
    writeFileSync(join(dir, "note.md"), "# Note\n\nKept.\n");
    expect(grk(["ingest", "note.md"], { cwd: dir }).code).toBe(0);
    expect(grk(["ingest", "icons"], { cwd: dir }).code).toBe(0);
    const missing = grk(["ingest", "docz"], { cwd: dir });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain("SOURCE_NOT_FOUND");
    expect(grk(["status", "--json"], { cwd: dir }).stdout).toContain('"documents": 1');
    expect(grk(["collections", "delete", "default", "--yes"], { cwd: dir }).code).toBe(0);
  });
});
