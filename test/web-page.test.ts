/**
 * The web page in real headless Debian chromium (playwright-core): type a
 * query, read the results grouped by document (source, lines, the matched
 * passage and the query's terms marked inside the cited span, in its
 * surrounding text), click Verify and see `verified`; filters and top-k; the
 * URL carries the search (bookmark, back button); the document view shows
 * the source with the span highlighted in full context; PDF cards come with
 * their context in the one search request. Saves the screenshots used by the
 * README and docs/serving.md.
 */
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteCollection } from "../src/collection/index.js";
import { ingest, makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";
import { makePdf } from "./support/pdf-fixtures.js";

const IMAGES = resolve(import.meta.dirname, "../docs/images");

let corpus: Corpus;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
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
  // A PDF whose pages each make a hit for "turbine".
  const pages = Array.from({ length: 4 }, (_, p) =>
    Array.from({ length: 6 }, (_, i) => `Page ${p + 1} line ${i + 1}: the turbine blade inspection, step ${i + 1}.`),
  );
  writeFileSync(join(corpus.docs, "manual.pdf"), await makePdf(pages, { title: "Turbine manual" }));
  await ingest(corpus.indexDir, [corpus.docs], "default", { chunkSize: 400, chunkOverlap: 40 });
  server = await startTestServer({ indexDir: corpus.indexDir });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  corpus?.cleanup();
});

/** Save a screenshot to docs/images when missing or on request (GROUNDKIT_UPDATE_SCREENSHOTS), else to a temp file. */
async function screenshot(page: import("playwright-core").Page, name: string): Promise<void> {
  const committed = join(IMAGES, name);
  const target = existsSync(committed) && !process.env.GROUNDKIT_UPDATE_SCREENSHOTS ? join(corpus.dir, name) : committed;
  mkdirSync(dirname(target), { recursive: true });
  await page.screenshot({ path: target, fullPage: false });
  expect(statSync(target).size).toBeGreaterThan(1000);
}

describe("web page", () => {
  it("searches, groups hits by document, marks the matched passage and terms in context, and verifies", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    const failed: string[] = [];
    page.on("requestfailed", (r) => failed.push(r.url()));
    page.on("pageerror", (e) => failed.push(e.message));
    await page.goto(server.url + "/");

    // The collection picker fills from GET /v1/collections.
    await expect.poll(() => page.locator("#collection option").allTextContents()).toEqual([expect.stringMatching(/^default/)]);

    // Keyboard only: the query box has focus on load; Enter submits.
    await expect.poll(() => page.evaluate("document.activeElement && document.activeElement.id")).toBe("query");
    await page.keyboard.type("restoring the snapshot");
    await page.keyboard.press("Enter");

    const group = page.locator("li.doc").first();
    const first = group.locator("li.hit").first();
    await first.waitFor();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^\d+ results? in default \(bm25\), from \d+ documents?/);
    // Sources show relative to the folder they were ingested from, once per document; the full path is the tooltip.
    expect(await group.locator(".doc-head .source").textContent()).toBe("guides/backups.md");
    expect(await group.locator(".doc-head .source").getAttribute("title")).toBe(join(corpus.docs, "guides", "backups.md"));
    // Hits in rank order; consecutive hits of one document share its heading.
    const sources = await page.locator("li.doc .doc-head .source").allTextContents();
    for (let i = 1; i < sources.length; i++) expect(sources[i]).not.toBe(sources[i - 1]);
    expect(await first.locator(".where").textContent()).toMatch(/^lines? \d+/);

    // The matched passage is highlighted inside the cited span, with the query's terms (stemmed) in <mark>.
    const marks = await first.locator(".passage .span .matched mark").allTextContents();
    expect(marks.map((m) => m.toLowerCase())).toEqual(expect.arrayContaining(["restore", "snapshot"]));
    expect(await first.locator(".passage .span").textContent()).toContain("copy the snapshot back");
    // Source text around the span came with the search, and so did the verdict.
    expect(await first.locator(".passage .ctx").count()).toBe(2);
    expect(await first.locator(".passage .ctx").first().textContent()).toMatch(/policy/);
    expect(await first.locator(".verdict").textContent()).toBe("verified");

    await first.locator("button.verify").click();
    await expect.poll(() => first.locator(".verification .detail").textContent()).toMatch(/matches the cited hash/);
    expect(await first.locator(".verdict").textContent()).toBe("verified");

    await screenshot(page, "web-page.png");
    expect(failed).toEqual([]);
    await page.close();
  });

  it("shows hits in rank order when a document's hits are not consecutive, and long passages at natural height with an expander", async () => {
    // Document a has the best and the third hit, b the second; a's chunks are long (chunk size 2400).
    const dir = join(corpus.dir, "ranks");
    mkdirSync(dir, { recursive: true });
    const filler = (topic: string) =>
      Array.from({ length: 24 }, (_, i) => `The ${topic} ledger, entry ${i + 1}, was copied by the night clerk.`).join(" ");
    writeFileSync(
      join(dir, "a.md"),
      `# Herd\n\nzebra zebra zebra zebra zebra zebra stripes. ${filler("grain")}\n\n${filler("salt")}\n\n` +
        `## Later\n\nOne zebra was seen. ${filler("wool")}\n\n${filler("iron")}\n`,
    );
    writeFileSync(join(dir, "b.md"), "# Plains\n\nA zebra and another zebra grazed by the river at dawn.\n");
    await ingest(corpus.indexDir, [dir], "ranks", { chunkSize: 2400, chunkOverlap: 100 });
    const api = await (await fetch(server.url + "/v1/search", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "zebra", collection: "ranks" }),
    })).json() as { results: Array<{ rank: number; citation: { source: string } }> };
    // The precondition: a, b, a.
    expect(api.results.map((h) => h.citation.source.slice(-4))).toEqual(["a.md", "b.md", "a.md"]);

    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    await page.goto(server.url + "/?q=zebra&collection=ranks");
    await expect.poll(() => page.locator("li.hit").count()).toBe(3);
    expect(await page.locator("li.hit .meta span:first-child").allTextContents()).toEqual(["#1", "#2", "#3"]);
    expect(await page.locator("li.doc .doc-head .source").allTextContents()).toEqual(["a.md", "b.md", "a.md"]);
    expect(await page.locator("li.doc").first().locator(".also").textContent()).toBe("also #3");

    // No passage is a scroll box inside the page: it is shown whole, or clamped with a button that shows it whole.
    const boxes = await page.locator(".passage").evaluateAll((nodes) =>
      nodes.map((n) => ({
        clamped: n.classList.contains("clamped"),
        scrolls: n.scrollHeight > n.clientHeight + 1,
        expander: n.nextElementSibling?.classList.contains("expand") ?? false,
        height: n.clientHeight,
      })),
    );
    for (const box of boxes) expect(box.scrolls ? box.clamped && box.expander : !box.expander).toBe(true);
    // b's short passage takes its own height; a's long ones are clamped.
    expect(boxes[1]!.clamped).toBe(false);
    expect(boxes[0]!.clamped).toBe(true);
    const first = page.locator("li.hit").first();
    await first.locator("button.expand").click();
    const opened = await first.locator(".passage").evaluate((n) => ({ scroll: n.scrollHeight, client: n.clientHeight }));
    expect(opened.scroll).toBeLessThanOrEqual(opened.client + 1);
    expect(opened.client).toBeGreaterThan(boxes[0]!.height);
    expect(await first.locator("button.expand").getAttribute("aria-expanded")).toBe("true");
    await page.close();
    await deleteCollection({ indexDir: corpus.indexDir, collection: "ranks" });
  });

  it("takes filters and top-k, keeps the search in the URL, and restores it from a bookmark and the back button", async () => {
    const page = await browser.newPage();
    await page.goto(server.url + "/");
    await expect.poll(() => page.locator("#collection option").count()).toBe(1);
    await page.locator("#query").fill("policy reviewed");
    await page.locator("#top-k").fill("2");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator("li.hit").count()).toBe(2);
    const url = new URL(page.url());
    expect(url.searchParams.get("q")).toBe("policy reviewed");
    expect(url.searchParams.get("k")).toBe("2");

    await page.locator("#filters").fill("path=guides/** ext=md");
    await page.locator("#query").fill("install");
    await page.locator("#top-k").fill("10");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^1 result in default/);
    expect(await page.locator(".doc-head .source").allTextContents()).toEqual(["guides/install.md"]);
    expect(new URL(page.url()).searchParams.getAll("filter")).toEqual(["path=guides/**", "ext=md"]);

    // A filter that leaves nothing: the status says why.
    await page.locator("#filters").fill("ext=txt");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^0 results .*in no chunk the filters allow/);

    // Back: the previous search comes back, form and results.
    await page.goBack();
    await expect.poll(() => page.locator("#filters").inputValue()).toBe("path=guides/** ext=md");
    await expect.poll(() => page.locator(".doc-head .source").allTextContents()).toEqual(["guides/install.md"]);

    // A bookmark opens straight on its search.
    const bookmark = await browser.newPage();
    await bookmark.goto(server.url + "/?q=policy+reviewed&k=2");
    await expect.poll(() => bookmark.locator("li.hit").count()).toBe(2);
    expect(await bookmark.locator("#query").inputValue()).toBe("policy reviewed");
    expect(await bookmark.locator("#top-k").inputValue()).toBe("2");
    await bookmark.close();
    await page.close();
  });

  it("opens a hit's source with the cited span highlighted in its full context, also from a shared URL", async () => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 760 } });
    await page.goto(server.url + "/?q=restoring+the+snapshot");
    const first = page.locator("li.hit").first();
    await first.waitFor();
    const chunkId = await first.getAttribute("data-chunk-id");
    await first.locator("button.open").click();
    const dialog = page.locator("dialog#document");
    await expect.poll(() => dialog.locator("#document-verdict .verdict").textContent()).toBe("verified");
    expect(await dialog.locator("#document-source").textContent()).toBe("guides/backups.md");
    // The whole document is there: from its title to its last sentence, the span highlighted within it.
    const text = (await dialog.locator("#document-text").textContent()) ?? "";
    expect(text.startsWith("# Backups")).toBe(true);
    expect(text.trimEnd().endsWith("point 8, is reviewed by the operations team each quarter.")).toBe(true);
    expect(await dialog.locator(".span .matched mark").count()).toBeGreaterThanOrEqual(2);
    expect(await dialog.locator(".span").textContent()).toContain("copy the snapshot back");
    expect(new URL(page.url()).searchParams.get("open")).toBe(chunkId);
    await screenshot(page, "web-document-view.png");

    // The URL with the open document is shareable: it opens the same view.
    const shared = await browser.newPage();
    await shared.goto(page.url());
    await expect.poll(() => shared.locator("dialog#document #document-verdict .verdict").textContent()).toBe("verified");
    expect(await shared.locator("dialog#document .span").textContent()).toContain("copy the snapshot back");
    await shared.close();

    await page.keyboard.press("Escape");
    await expect.poll(() => dialog.isVisible()).toBe(false);
    await expect.poll(() => new URL(page.url()).searchParams.get("open")).toBe(null);
    await page.close();
  });

  it("shows PDF cards with context from the one search request, not one re-extraction per card", async () => {
    const page = await browser.newPage();
    const calls: string[] = [];
    page.on("request", (r) => calls.push(`${r.method()} ${new URL(r.url()).pathname}`));
    await page.goto(server.url + "/?q=turbine+blade");
    // A PDF is re-extracted to verify it: allow for a shared machine.
    await expect.poll(() => page.locator("#status").textContent(), { timeout: 30_000 }).toMatch(/^\d+ results? in default/);
    expect(await page.locator("li.hit").count(), (await page.locator("#status").textContent()) ?? "").toBeGreaterThanOrEqual(2);
    const cards = page.locator("li.doc").first().locator("li.hit");
    expect(await page.locator("li.doc").first().locator(".doc-head .source").textContent()).toBe("manual.pdf");
    expect(await cards.count()).toBeGreaterThanOrEqual(2);
    for (const card of await cards.all()) {
      expect(await card.locator(".verdict").textContent()).toBe("verified");
      expect(await card.locator(".passage .matched mark").first().textContent()).toMatch(/turbine|blade/i);
      expect(await card.locator(".passage .ctx").count()).toBe(2);
    }
    expect(calls.filter((c) => c === "POST /v1/search")).toHaveLength(1);
    expect(calls.filter((c) => c.includes("/chunks/"))).toEqual([]);
    await page.close();
  });

  it("shows the server's typed error when a search fails", async () => {
    await ingest(corpus.indexDir, [join(corpus.docs, "guides")], "doomed");
    const page = await browser.newPage();
    await page.goto(server.url + "/");
    await expect.poll(() => page.locator("#collection option").count()).toBe(2);
    // The collection disappears after the page listed it.
    await deleteCollection({ indexDir: corpus.indexDir, collection: "doomed" });
    await page.locator("#collection").selectOption("doomed");
    await page.locator("#query").fill("install");
    await page.locator("button[type=submit]").click();
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^COLLECTION_NOT_FOUND: Collection 'doomed' does not exist/);
    expect(await page.locator("#status").getAttribute("class")).toBe("error");
    expect(await page.locator("li.hit").count()).toBe(0);
    await page.close();
  });

  it("says which lines an HTML hit came from in the HTML file", async () => {
    const dir = join(corpus.dir, "site");
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "station.html"),
      "<!doctype html>\n<html><head><title>Station</title></head>\n<body>\n<h1>Weather station</h1>\n\n<p>The anemometer\nis calibrated\nevery spring.</p>\n</body></html>\n",
    );
    await ingest(corpus.indexDir, [dir], "site");
    const page = await browser.newPage();
    await page.goto(server.url + "/?collection=site&q=anemometer+calibrated");
    await expect.poll(() => page.locator("#status").textContent()).toMatch(/^1 result in site/);
    // "# Weather station\n\nThe anemometer is calibrated every spring." came from lines 4-8 of the file.
    expect(await page.locator("li.hit .where").first().textContent()).toBe("lines 4–8");
    await page.close();
    await deleteCollection({ indexDir: corpus.indexDir, collection: "site" });
  });
});
