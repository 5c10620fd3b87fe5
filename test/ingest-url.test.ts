/**
 * The snapshot class end to end: a page served on 127.0.0.1 ingests only with
 * --allow-private-network, verifies from its snapshot with the server stopped,
 * drifts when the snapshot is altered and is unresolvable once it is gone;
 * credential URLs and redirects are refused before anything is stored.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { documentIdFor } from "../src/core/ids.js";
import { grk, grkAsync, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let server: Server;
let base: string;
const hits: string[] = [];
let pageVersion = 1;

const PAGES: Record<string, { type: string; body: () => string | Buffer; status?: number; headers?: Record<string, string> }> = {
  "/guide.html": {
    type: "text/html; charset=utf-8",
    body: () =>
      `<html><head><title>Guide</title></head><body><h1>Lighthouse guide</h1><p>The lighthouse keeper trims the wick at dusk${pageVersion > 1 ? " and dawn" : ""}.</p></body></html>`,
  },
  "/notes.txt": { type: "text/plain; charset=iso-8859-1", body: () => Buffer.from("Keeper notes: caf\xe9 at noon.\n", "latin1") },
  "/readme.md": { type: "text/markdown", body: () => "# Readme\n\nFog horn maintenance schedule.\n" },
  "/moved": { type: "text/html", status: 302, headers: { location: "/guide.html" }, body: () => "" },
  "/image.png": { type: "image/png", body: () => Buffer.from([0x89, 0x50, 0x4e, 0x47]) },
};

beforeAll(async () => {
  work = tempDir("grk-url-");
  server = createServer((req, res) => {
    hits.push(req.url ?? "");
    const page = PAGES[(req.url ?? "").split("?")[0]!];
    if (!page) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(page.status ?? 200, { "content-type": page.type, ...page.headers });
    res.end(page.body());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  work.cleanup();
});

/** Ingest in a child process; async, because the page server runs in this process's event loop. */
async function ingest(args: string[]) {
  const res = await grkAsync(["ingest", ...args, "--json"], { cwd: work.dir });
  return { code: res.code, summary: JSON.parse(res.stdout || "{}"), stderr: res.stderr };
}

describe("URL ingestion", () => {
  it("refuses a loopback host without --allow-private-network", async () => {
    const { code, summary } = await ingest([`${base}/guide.html`]);
    expect(code).toBe(1);
    expect(summary.failed[0].code).toBe("SSRF_BLOCKED");
    expect(hits).toEqual([]);
  });

  it("refuses credential URLs and redirects before anything is stored", async () => {
    const cred = await ingest([`${base}/guide.html?api_key=sk-supersecret`, "--allow-private-network"]);
    expect(cred.summary.failed[0].code).toBe("URL_REFUSED");
    expect(JSON.stringify(cred.summary)).not.toContain("sk-supersecret");
    expect(hits).toEqual([]);

    const redirect = await ingest([`${base}/moved`, "--allow-private-network"]);
    expect(redirect.summary.failed[0]).toMatchObject({ code: "REDIRECT_REFUSED" });
    expect(hits).toEqual(["/moved"]);
    expect(existsSync(join(work.dir, ".groundkit", "default.snapshots"))).toBe(false);
    // Nothing was stored, not even the collection these runs would have created.
    expect(grk(["status", "--json"], { cwd: work.dir }).stderr).toContain("error[COLLECTION_NOT_FOUND]");
  });

  it("ingests HTML, text (declared charset) and Markdown; refuses other content types", async () => {
    const { summary } = await ingest([
      `${base}/guide.html`,
      `${base}/notes.txt`,
      `${base}/readme.md`,
      `${base}/image.png`,
      "--allow-private-network",
    ]);
    expect(summary.indexed).toBe(3);
    expect(summary.failed).toEqual([expect.objectContaining({ code: "UNSUPPORTED_TYPE" })]);
    const snapDir = join(work.dir, ".groundkit", "default.snapshots");
    expect(readdirSync(snapDir).sort()).toEqual(
      [`${base}/guide.html`, `${base}/notes.txt`, `${base}/readme.md`].map(documentIdFor).sort(),
    );
    const again = await ingest([`${base}/guide.html`, "--allow-private-network"]);
    expect(again.summary).toMatchObject({ indexed: 0, unchanged: 1 });
  });

  it("verifies from the snapshot with the server stopped; tampering drifts, deletion is unresolvable", async () => {
    const res = grk(["search", "lighthouse keeper wick", "--json", "--verify"], { cwd: work.dir });
    const [hit] = JSON.parse(res.stdout).results;
    expect(hit.citation).toMatchObject({ source: `${base}/guide.html`, source_class: "snapshot", extractor: null });
    expect(hit.verification.verdict).toBe("verified");
    const latin = JSON.parse(grk(["search", "café noon", "--json", "--verify"], { cwd: work.dir }).stdout).results[0];
    expect(latin.verification.verdict).toBe("verified");

    await new Promise((r) => server.close(r));
    const requestsBefore = hits.length;
    writeFileSync(join(work.dir, "hit.json"), JSON.stringify(hit));
    expect(JSON.parse(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).stdout).verdict).toBe("verified");
    expect(hits.length).toBe(requestsBefore);

    const snap = join(work.dir, ".groundkit", "default.snapshots", hit.document_id);
    const original = readFileSync(snap, "utf8");
    writeFileSync(snap, original.replace("keeper", "keepxr"));
    expect(JSON.parse(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).stdout).verdict).toBe("drifted");

    unlinkSync(snap);
    symlinkSync("/etc/hostname", snap);
    const sym = JSON.parse(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).stdout);
    expect(sym.verdict).toBe("unresolvable");
    expect(sym.detail).toMatch(/symlink/);

    unlinkSync(snap);
    const gone = JSON.parse(grk(["verify", "hit.json", "--json"], { cwd: work.dir }).stdout);
    expect(gone.verdict).toBe("unresolvable");
    expect(gone.detail).toMatch(/no snapshot/);

    // Restart on the same port: a re-ingest restores the missing snapshot even though the page is unchanged.
    const port = Number(new URL(base).port);
    await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
    const again = await grkAsync(["ingest", `${base}/guide.html`, "--allow-private-network", "--json"], { cwd: work.dir });
    expect(JSON.parse(again.stdout).indexed).toBe(1);
    expect(readFileSync(snap, "utf8")).toBe(original);
  });

  it("replaces a changed page and removes the snapshot with its document", async () => {
    pageVersion = 2;
    const changed = await grkAsync(["ingest", `${base}/guide.html`, "--allow-private-network", "--json"], { cwd: work.dir });
    expect(JSON.parse(changed.stdout).indexed).toBe(1);
    const snap = join(work.dir, ".groundkit", "default.snapshots", documentIdFor(`${base}/guide.html`));
    expect(readFileSync(snap, "utf8")).toContain("and dawn");
    expect(grk(["collections", "delete", "default", "--yes"], { cwd: work.dir }).code).toBe(0);
    expect(existsSync(join(work.dir, ".groundkit", "default.snapshots"))).toBe(false);
  });
});
