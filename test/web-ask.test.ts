/**
 * The web page's Ask box in real headless Debian chromium: the answer streams
 * in from the server's chat model (a local OpenAI-compatible server), then the
 * quote is shown highlighted in its cited passage with the passage's verdict,
 * and a fabricated quote is listed as not found.
 */
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/chromium.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { passageNumber, startChatServer, type ChatServer } from "./support/chat-server.js";
import { makeCorpus, startTestServer, type Corpus, type TestServer } from "./service-fixtures.js";

let corpus: Corpus;
let server: TestServer;
let chat: ChatServer;
let browser: Browser;

beforeAll(async () => {
  corpus = await makeCorpus();
  chat = await startChatServer((req) => {
    const n = passageNumber(req, "re-reading");
    return { text: `A citation is checked by "re-reading the source" [${n}]. It is "signed by a notary" [${n}].`, chunkSize: 5 };
  });
  server = await startTestServer({
    indexDir: corpus.indexDir,
    settings: { chat: { provider: "openai", base_url: `${chat.origin}/v1`, model: "gpt-test", allow_private_network: true } },
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  await chat?.close();
  corpus?.cleanup();
});

describe("web page Ask box", () => {
  it("streams the answer and highlights each found quote in its passage", async () => {
    const page = await browser.newPage({ viewport: { width: 960, height: 900 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(server.url + "/");
    await page.fill("#ask-question", "how is a citation checked");
    await page.click("#ask-submit");
    await page.waitForSelector("#ask-passages li mark");
    expect(await page.textContent("#ask-answer")).toContain('A citation is checked by "re-reading the source"');
    expect(await page.textContent("#ask-passages li mark")).toBe("re-reading the source");
    expect(await page.textContent("#ask-passages .verdict.verified")).toBe("verified");
    expect(await page.textContent("#ask-passages")).toContain("quote not found: \u201csigned by a notary\u201d");
    expect(await page.textContent("#ask-status")).toMatch(/grounding: partially grounded/);
    expect(errors).toEqual([]);
    await page.close();
  });
});
