/**
 * HTML citations name the lines of the HTML file their text came from
 * (issue 19): the serializer's source-line map on real files with a known
 * layout, a property that every chunk's file-line range holds its text, and
 * verification of an edited file through the library.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import type { SearchHit } from "../src/core/contracts.js";
import { extractedSpanOfSourceLines, sourceLineAt, sourceLineRange, type SourceLineMap } from "../src/core/source-lines.js";
import { createHtmlExtractor } from "../src/extract/html.js";
import { serializeHtml } from "../src/extract/html-serializer.js";
import { chunkText } from "../src/ingest/chunker.js";
import { tempDir } from "./support/cli.js";

/** Each run of the text with the file line it came from, e.g. "[7]# Backups\n\n". */
function annotated(text: string, map: SourceLineMap): string {
  const cps = Array.from(text);
  return map.starts.map((s, i) => `[${map.lines[i]}]${cps.slice(s, map.starts[i + 1] ?? cps.length).join("")}`).join("");
}

const PAGE = [
  "<!doctype html>", // 1
  "<html><head><title>Backups</title>", // 2
  "<style>", // 3
  "p { color: red }", // 4
  "</style>", // 5
  "<script>var x = '<p>not text</p>';", // 6
  "</script></head>", // 7
  "<body>", // 8
  "<h1>Backups</h1>", // 9
  "", // 10
  "<p>Backups are", // 11
  "verified &amp; kept", // 12
  "weekly.</p>", // 13
  "<ul>", // 14
  "  <li>daily</li>", // 15
  "  <li>monthly,", // 16
  "      yearly</li>", // 17
  "</ul>", // 18
  "<pre>", // 19
  "restore --all", // 20
  "  --dry-run &lt;dir&gt;", // 21
  "</pre>", // 22
  "<table><tr><td>a</td>", // 23
  "<td>b</td></tr></table>", // 24
  "<p>end</p></body></html>", // 25
].join("\n");

describe("the HTML serializer's source-line map", () => {
  it("gives each word the line of the file it came from: multi-line elements, entities, <pre>, lists, tables; no script or style", () => {
    const { text, sourceLines } = serializeHtml(PAGE);
    expect(annotated(text, sourceLines)).toBe(
      "[9]# Backups\n\n" +
        "[11]Backups are [12]verified & kept [13]weekly.\n\n" +
        "[15]- daily\n" +
        "[16]- monthly, [17]yearly\n\n" +
        "[20]```\nrestore --all\n[21]  --dry-run <dir>\n```\n\n" +
        "[23]a | [24]b\n\n" +
        "[25]end",
    );
  });

  it("counts CRLF and lone CR line ends as the file does, through the extractor's decoding", async () => {
    const html = await createHtmlExtractor();
    const crlf = "<html>\r\n<body>\r\n<p>first\r\nsecond</p>\r\r<pre>\r\ncode\r\n</pre>\r\n<p>last</p>\r\n";
    const out = await html.extract(new TextEncoder().encode(crlf));
    expect(annotated(out.text, out.sourceLines!)).toBe("[3]first [4]second\n\n[7]```\ncode\n```\n\n[9]last");
  });

  it("keeps the line of text after a byte order mark and a leading indentation the trim removes", async () => {
    const html = await createHtmlExtractor();
    const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode("\n\n<ul><ul><li>deep</li></ul></ul>\n<p>next</p>")]);
    const out = await html.extract(bytes);
    expect(out.text).toBe("- deep\n\nnext");
    expect(out.sourceLines).toEqual({ starts: [0, 8], lines: [3, 4] });
  });

  it("maps a span to the lines its first and last code points came from", () => {
    const { text, sourceLines } = serializeHtml(PAGE);
    const cps = Array.from(text);
    const at = cps.join("").indexOf("verified");
    expect(sourceLineRange(sourceLines, at, at + "verified & kept weekly".length)).toEqual({ startLine: 12, endLine: 13 });
    expect(sourceLineAt(sourceLines, cps.length - 1)).toBe(25);
    expect(sourceLineRange({ starts: [], lines: [] }, 0, 0)).toBeUndefined();
    // And back: the text from lines 12-13 of the file, and none from lines 1-8 (head, style, script).
    const span = extractedSpanOfSourceLines(sourceLines, cps.length, 12, 13)!;
    expect(cps.slice(span.start, span.end).join("")).toBe("verified & kept weekly.\n\n");
    expect(extractedSpanOfSourceLines(sourceLines, cps.length, 1, 8)).toBeUndefined();
  });
});

/** Words whose text the HTML holds verbatim (no entity, no markup-generated prefix). */
const WORD = fc.stringMatching(/^[a-z]{1,8}$/);
const BLOCK = fc.oneof(
  fc.array(WORD, { minLength: 1, maxLength: 12 }).map((ws) => ({ tag: "p", words: ws })),
  fc.array(WORD, { minLength: 1, maxLength: 6 }).map((ws) => ({ tag: "h2", words: ws })),
  fc.array(WORD, { minLength: 1, maxLength: 6 }).map((ws) => ({ tag: "li", words: ws })),
  fc.array(WORD, { minLength: 1, maxLength: 8 }).map((ws) => ({ tag: "pre", words: ws })),
  fc.array(WORD, { minLength: 1, maxLength: 3 }).map((ws) => ({ tag: "script", words: ws })),
);

describe("every chunk's file lines hold its text", () => {
  it("the HTML lines a chunk names contain each of its words (random layouts, chunk sizes)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(BLOCK, fc.array(fc.boolean(), { maxLength: 12 }), fc.nat(3)), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 64, max: 400 }),
        (blocks, chunkSize) => {
          // Words separated by a space or a line break (the booleans), blocks by 0-3 blank lines.
          const parts = blocks.map(([block, breaks, blank]) => {
            const inner = block.words.map((w, i) => (i === 0 ? w : (breaks[i] ? "\n" : " ") + w)).join("");
            const html = block.tag === "li" ? `<ul><li>${inner}</li></ul>` : `<${block.tag}>${inner}</${block.tag}>`;
            return html + "\n".repeat(blank + 1);
          });
          const page = `<html><body>\n${parts.join("")}</body></html>`;
          const sourceLines = page.split("\n");
          const { text, sourceLines: map } = serializeHtml(page);
          if (text === "") return;
          const chunks = chunkText(text, { chunkSize, chunkOverlap: Math.floor(chunkSize / 5), markdown: true });
          for (const chunk of chunks) {
            const range = sourceLineRange(map, chunk.start, chunk.end)!;
            const held = sourceLines.slice(range.startLine - 1, range.endLine).join("\n");
            for (const word of chunk.text.match(/[a-z]+/g) ?? []) {
              // A chunk may cut a word at its edge; only its whole words must be found.
              if (!new RegExp(`(^|[^a-z])${word}([^a-z]|$)`).test(chunk.text)) continue;
              if (!held.includes(word)) throw new Error(`'${word}' of chunk ${chunk.start}-${chunk.end} is not in lines ${range.startLine}-${range.endLine}`);
            }
            // The range is tight: a chunk that starts (ends) with a word, or with a heading or bullet marker
            // before one, starts (ends) on that word's line. A code fence is its <pre>'s.
            const first = /^(?:#+ |- )?([a-z]+)/.exec(chunk.text)?.[1];
            const last = /([a-z]+)$/.exec(chunk.text)?.[1];
            if (first) expect(sourceLines[range.startLine - 1]).toContain(first);
            if (last) expect(sourceLines[range.endLine - 1]).toContain(last);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("verifying an HTML citation's file lines", () => {
  let work: { dir: string; cleanup: () => void };
  let col: Collection;
  let file: string;
  let hit: SearchHit;

  beforeAll(async () => {
    work = tempDir("grk-html-lines-");
    mkdirSync(join(work.dir, "docs"));
    file = join(work.dir, "docs", "page.html");
    writeFileSync(file, PAGE);
    col = await openCollection({ indexDir: join(work.dir, "idx"), collection: "c", create: true });
    await col.ingest([join(work.dir, "docs")], { chunkSize: 64, chunkOverlap: 0 });
    hit = (await col.search("verified kept weekly")).find((h) => h.text.includes("verified & kept"))!;
  });
  afterAll(async () => {
    await col.close();
    work.cleanup();
  });

  it("records the file lines with the extracted ones", () => {
    // "# Backups\n\nBackups are verified & kept weekly.": lines 1-3 of the extracted text, 9-13 of the file.
    expect(hit.text).toBe("# Backups\n\nBackups are verified & kept weekly.");
    expect(hit.citation).toMatchObject({ source_class: "extracted", start_line: 1, end_line: 3, source_start_line: 9, source_end_line: 13 });
  });

  it("a line inserted above the text (no text of its own) is drifted, saying the file lines it is on now", async () => {
    expect((await col.verify(hit)).verdict).toBe("verified");
    try {
      writeFileSync(file, PAGE.replace("<body>", "<body>\n<!-- a new comment line -->"));
      const { start_offset: s, end_offset: e } = hit.citation;
      const want = `the text is unchanged at code points ${s}-${e}, but now on file lines 10-14 (cited 9-13).`;
      expect(await col.verify(hit)).toEqual({ verdict: "drifted", detail: want });
      const [viaSearch] = (await col.search("verified kept weekly", { verify: true })).filter((h) => h.chunk_id === hit.chunk_id);
      expect(viaSearch?.verification).toEqual({ verdict: "drifted", detail: want });
      // A change inside a line (same lines, same text) leaves the citation verified.
      writeFileSync(file, PAGE.replace("<h1>Backups</h1>", "<h1 class=\"title\">Backups</h1>"));
      expect((await col.verify(hit)).verdict).toBe("verified");
    } finally {
      writeFileSync(file, PAGE);
    }
    expect((await col.verify(hit)).verdict).toBe("verified");
  });

  it("text that moved says where it sits now, file lines included", async () => {
    try {
      writeFileSync(file, PAGE.replace("<h1>Backups</h1>", "<p>A new paragraph.</p>\n<h1>Backups</h1>"));
      const v = await col.verify(hit, { originalText: hit.text });
      expect(v.verdict).toBe("drifted");
      expect(v.detail).toMatch(/The cited text now sits at code points 18-64 \(lines 3-5\), file lines 10-14\.$/);
    } finally {
      writeFileSync(file, PAGE);
    }
  });

  it("reads file lines back with grk get's library call, and the citation it returns verifies", async () => {
    const view = await col.getDocument(file, { startLine: 11, endLine: 13 });
    expect(view).toMatchObject({ lines_of: "file", start_line: 11, end_line: 13, total_lines: 25, text: "Backups are verified & kept weekly." });
    expect(view.citation).toMatchObject({ source_start_line: 11, source_end_line: 13, start_line: 3, end_line: 3 });
    expect((await col.verify({ citation: view.citation, text: view.text })).verdict).toBe("verified");
    // Lines holding only markup are refused with a hint, not served empty.
    await expect(col.getDocument(file, { startLine: 3, endLine: 7 })).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    // A budget cuts at the last whole file line that fits, and says where to go on.
    const cut = await col.getDocument(file, { startLine: 11, endLine: 17, maxChars: 40 });
    expect(cut).toMatchObject({ truncated: true, end_line: 13, next_line: 15, text: "Backups are verified & kept weekly." });
    expect(readFileSync(file, "utf8")).toBe(PAGE);
  });
});
