/**
 * The web page's view of a citation that drifted (issue 28): after the cited
 * file is edited and ingested again, Verify shows the text as it was cited
 * (from the document history, with its version) side by side with what the
 * source says there now. Real headless Debian chromium (playwright-core), a
 * real server on 127.0.0.1.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ingest, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

const CITED = "Plain text notes 😀 about backups and snapshots.\nSecond line.\n";
const EDITED = "Plain text notes 😀 about restores and archives.\nSecond line.\n";

let corpus: Corpus;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  corpus = await makeCorpus();
  server = await startTestServer({ indexDir: corpus.indexDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  corpus?.cleanup();
});

describe("web page and document history", () => {
  it("shows a drifted citation's text as cited beside the text there now", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const failed: string[] = [];
    page.on("pageerror", (e) => failed.push(e.message));
    await page.goto(server.url + "/");
    await expect.poll(() => page.locator("#collection option").allTextContents()).toEqual([expect.stringMatching(/^default/)]);
    await page.locator("#query").fill("backups snapshots");
    await page.keyboard.press("Enter");
    const hit = page.locator("li.hit").first();
    await hit.waitFor();
    expect(await page.locator("li.doc .doc-head .source").first().textContent()).toBe("notes.txt");

    // The cited file changes and is ingested again while the page still holds the hit.
    writeFileSync(join(corpus.docs, "notes.txt"), EDITED);
    await ingest(corpus.indexDir, [corpus.docs]);
    await hit.locator("button.verify").click();
    const pair = hit.locator(".verification .was-now");
    await pair.waitFor();
    expect(await hit.locator(".verification .verdict").textContent()).toBe("drifted");
    const was = pair.locator(".passage.was");
    const now = pair.locator(".passage.now");
    expect(await was.textContent()).toBe(CITED.trimEnd());
    expect(await now.textContent()).toContain("restores and archives");
    expect(await pair.locator(".detail").first().textContent()).toMatch(/^as cited \(version 1, ingested \d{4}-/);
    // Side by side: the old text on the left, the new on the right, on one row.
    const [a, b] = [(await was.boundingBox())!, (await now.boundingBox())!];
    expect(a.x + a.width).toBeLessThanOrEqual(b.x);
    expect(Math.abs(a.y - b.y)).toBeLessThan(a.height);
    expect(failed).toEqual([]);
    await page.close();
  });
});
