/**
 * The web page in real headless Debian chromium (playwright-core): type a
 * query, read the results (source, lines, the cited span highlighted in its
 * surrounding text), click Verify and see `verified`. Saves the screenshot used
 * by docs/serving.md.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteCollection } from "../src/collection.js";
import { ingest, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

const CHROMIUM = "/usr/bin/chromium";
const SCREENSHOT = resolve(import.meta.dirname, "../docs/images/web-page.png");

let corpus: Corpus;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium (npm test does this through scripts/ensure-test-deps.mjs).`);
  corpus = await makeCorpus();
  // Several small chunks, so the cited span has source text around it.
  const filler = (topic: string, n: number) =>
    Array.from({ length: n }, (_, i) => `The ${topic} policy, point ${i + 1}, is reviewed by the operations team each quarter.`).join(" ");
  writeFileSync(
    join(corpus.docs, "guides", "backups.md"),
    `# Backups\n\n${filler("schedule", 8)}\n\n${filler("storage", 4)}\n\n` +
      "To restore, stop the service, copy the snapshot back into the data directory and start it again. " +
      `The restore keeps the original file permissions.\n\n${filler("retention", 8)}\n`,
  );
  await ingest(corpus.indexDir, [corpus.docs], "default", { chunkSize: 400, chunkOverlap: 40 });
  server = await startTestServer({ indexDir: corpus.indexDir });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  corpus?.cleanup();
});

describe("web page", () => {
  it("searches, shows cited spans in context, and verifies a citation", async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 720 } });
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    page.on("pageerror", (e) => failed.push(e.message));
    await page.goto(server.url + "/");

    // The collection picker fills from GET /v1/collections.
    await expect.poll(() => page.locator("#collection option").allTextContents()).toEqual([expect.stringMatching(/^default/)]);

    // Keyboard only: the query box has focus on load; Enter submits.
    await expect.poll(() => page.evaluate("document.activeElement && document.activeElement.id")).toBe("query");
    await page.keyboard.type("restore the snapshot");
    await page.keyboard.press("Enter");

    const first = page.locator("li.hit").first();
    await first.waitFor();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^\d+ results? in default \(bm25\)/);
    // Sources show relative to the folder they were ingested from; the full path is the tooltip.
    expect(await first.locator(".source").textContent()).toBe("guides/backups.md");
    expect(await first.locator(".source").getAttribute("title")).toBe(join(corpus.docs, "guides", "backups.md"));
    expect(await first.locator(".where").textContent()).toMatch(/^lines? \d+/);

    // The cited span is highlighted inside the surrounding source text once its context loads.
    const mark = first.locator(".passage mark");
    expect(await mark.textContent()).toContain("restore");
    await expect.poll(() => first.locator(".passage .ctx").count()).toBe(2);
    expect(await first.locator(".passage .ctx").first().textContent()).toMatch(/policy/);

    await first.locator("button.verify").click();
    await expect.poll(() => first.locator(".verdict").textContent()).toBe("verified");
    expect(await first.locator(".verification .detail").textContent()).toMatch(/matches the cited hash/);

    // The committed screenshot is written when missing or on request; otherwise to a temp file.
    const target = existsSync(SCREENSHOT) && !process.env.GROUNDKIT_UPDATE_SCREENSHOTS ? join(corpus.dir, "web-page.png") : SCREENSHOT;
    mkdirSync(dirname(target), { recursive: true });
    await page.screenshot({ path: target, fullPage: false });
    expect(statSync(target).size).toBeGreaterThan(1000);
    expect(failed).toEqual([]);
    await page.close();
  });

  it("shows the server's typed error when a search fails", async () => {
    await ingest(corpus.indexDir, [join(corpus.docs, "guides")], "doomed");
    const page = await browser.newPage();
    await page.goto(server.url + "/");
    await expect.poll(() => page.locator("#collection option").count()).toBe(2);
    // The collection disappears after the page listed it.
    deleteCollection({ indexDir: corpus.indexDir, collection: "doomed" });
    await page.locator("#collection").selectOption("doomed");
    await page.locator("#query").fill("install");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^COLLECTION_NOT_FOUND: Collection 'doomed' does not exist/);
    expect(await page.locator("#status").getAttribute("class")).toBe("error");
    expect(await page.locator("li.hit").count()).toBe(0);
    await page.close();
  });
});
