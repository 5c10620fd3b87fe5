/**
 * Regressions found by the citation-integrity fuzz (fuzz/): each reproduces a
 * shrunk failing case through the library API.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { SearchHit, Verification } from "../src/core/contracts.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let server: Server;
let base: string;
const pages = new Map<string, string>();

beforeAll(async () => {
  work = tempDir("grk-regress-");
  server = createServer((req, res) => {
    const body = pages.get(req.url ?? "");
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { "content-type": "text/markdown; charset=utf-8" }).end(body);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  work.cleanup();
});

/** A fresh collection in its own directory, with `files` under docs/ and `urls` ingested. */
async function world(name: string, files: Record<string, string>, urls: string[] = []): Promise<{ col: Collection; dir: string; docs: string }> {
  const dir = join(work.dir, name);
  const docs = join(dir, "docs");
  mkdirSync(docs, { recursive: true });
  for (const [file, text] of Object.entries(files)) writeFileSync(join(docs, file), text);
  const col = await openCollection({ indexDir: join(dir, "idx"), collection: "c", create: true });
  const summary = await col.ingest([docs, ...urls], { allowPrivateNetwork: true, chunkSize: 200, chunkOverlap: 0 });
  expect(summary.failed).toEqual([]);
  return { col, dir, docs };
}

async function only(col: Collection, query: string): Promise<SearchHit> {
  const hits = await col.search(query);
  expect(hits.length).toBeGreaterThan(0);
  return hits[0]!;
}

/**
 * Verify while a watchdog stands by: if verification blocks opening a FIFO,
 * the watchdog opens it for writing (which releases the blocked open) so the
 * test process is not left with a stuck thread; the test then fails on the flag.
 */
async function verifyWithWatchdog(col: Collection, hit: SearchHit, fifo: string): Promise<{ v: Verification; watchdogFired: boolean }> {
  let watchdogFired = false;
  const release = (): void => {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // nobody is blocked on it
    }
  };
  const timer = setTimeout(() => {
    watchdogFired = true;
    const again = setInterval(release, 20);
    setTimeout(() => clearInterval(again), 2000);
  }, 10_000);
  try {
    return { v: await col.verify(hit.citation), watchdogFired };
  } finally {
    clearTimeout(timer);
  }
}

describe("a source replaced by a FIFO (fuzz: move_rename, replaced by a FIFO)", () => {
  it("is unresolvable at once instead of blocking verification forever", async () => {
    const { col, docs } = await world("fifo", { "a.md": "# A\n\nlighthouse keeper notes\n" });
    try {
      const hit = await only(col, "lighthouse");
      const file = join(docs, "a.md");
      rmSync(file);
      execFileSync("mkfifo", [file]);
      const { v, watchdogFired } = await verifyWithWatchdog(col, hit, file);
      expect(watchdogFired).toBe(false);
      expect(v.verdict).toBe("unresolvable");
      expect(v.detail).toMatch(/not a regular file/);
    } finally {
      await col.close();
    }
  });

  it("a snapshot replaced by a FIFO is unresolvable too", async () => {
    pages.set("/fifo.md", "# Page\n\nfoghorn schedule\n");
    const { col, dir } = await world("snapfifo", {}, [`${base}/fifo.md`]);
    try {
      const hit = await only(col, "foghorn");
      const snap = join(dir, "idx", "c.snapshots", hit.document_id);
      rmSync(snap);
      execFileSync("mkfifo", [snap]);
      const { v, watchdogFired } = await verifyWithWatchdog(col, hit, snap);
      expect(watchdogFired).toBe(false);
      expect(v.verdict).toBe("unresolvable");
    } finally {
      await col.close();
    }
  });
});

describe("snapshot reading (fuzz: move_rename / break_encoding on snapshots)", () => {
  it("a snapshot replaced by a directory is unresolvable, not an exception", async () => {
    pages.set("/dir.md", "# Page\n\nbeacon tower\n");
    const { col, dir } = await world("snapdir", {}, [`${base}/dir.md`]);
    try {
      const hit = await only(col, "beacon");
      const snap = join(dir, "idx", "c.snapshots", hit.document_id);
      rmSync(snap);
      mkdirSync(snap);
      const v = await col.verify(hit.citation);
      expect(v.verdict).toBe("unresolvable");
      expect(v.detail).toMatch(/snapshot/);
    } finally {
      await col.close();
    }
  });

  it("a snapshot that is not valid UTF-8 is unresolvable, never drifted", async () => {
    pages.set("/bad.md", "# Page\n\nharbor pilot logbook\n");
    const { col, dir } = await world("snapbad", {}, [`${base}/bad.md`]);
    try {
      const hit = await only(col, "harbor");
      const snap = join(dir, "idx", "c.snapshots", hit.document_id);
      writeFileSync(snap, Buffer.concat([Buffer.from([0xff]), readFileSync(snap)]));
      const v = await col.verify(hit.citation);
      expect(v.verdict).toBe("unresolvable");
      expect(v.detail).toMatch(/UTF-8/);
    } finally {
      await col.close();
    }
  });

  it("corrupt snapshot bytes are never verified, even where the cited text holds U+FFFD", async () => {
    // The page legitimately contains U+FFFD; replacing its three bytes with one invalid
    // byte decodes (lossily) to the same text, so a lossy read would say "verified".
    pages.set("/fffd.md", "# Page\n\nsignal \ufffd lamp\n");
    const { col, dir } = await world("snapfffd", {}, [`${base}/fffd.md`]);
    try {
      const hit = await only(col, "signal lamp");
      expect(hit.text).toContain("\ufffd");
      const snap = join(dir, "idx", "c.snapshots", hit.document_id);
      const bytes = readFileSync(snap);
      const at = bytes.indexOf(Buffer.from("\ufffd", "utf8"));
      writeFileSync(snap, Buffer.concat([bytes.subarray(0, at), Buffer.from([0xff]), bytes.subarray(at + 3)]));
      const v = await col.verify(hit.citation);
      expect(v.verdict).not.toBe("verified");
      expect(v.verdict).toBe("unresolvable");
    } finally {
      await col.close();
    }
  });
});

describe("relocation when the source became shorter than the cited end (fuzz: delete_before)", () => {
  it("gives the new offsets in `relocated`, not only in the detail", async () => {
    const para = (w: string) => `${w} ${"alpha beta gamma delta ".repeat(6)}end.`;
    const text = `# T\n\n${para("first")}\n\n${para("second")}\n\nzephyr closing words here.\n`;
    const { col, docs } = await world("reloc", { "t.md": text });
    try {
      const hit = await only(col, "zephyr");
      expect(hit.citation.start_offset).toBeGreaterThan(10);
      const file = join(docs, "t.md");
      // Delete 10 code points before the span: the cited end now lies past the end of the file.
      const cut = text.indexOf("first");
      writeFileSync(file, text.slice(0, cut) + text.slice(cut + 10));
      const v = await col.verify(hit.citation);
      const start = hit.citation.start_offset - 10;
      expect(v.verdict).toBe("drifted");
      expect(v.detail).toContain(`now sits at code points ${start}-`);
      expect(v.relocated).toEqual({ start_offset: start, end_offset: hit.citation.end_offset - 10 });
    } finally {
      await col.close();
    }
  });
});
