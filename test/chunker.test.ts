import { describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import type { ChunkSpan } from "../src/core/contracts.js";
import {
  chunkText,
  DEFAULT_CHUNKER_OPTIONS,
  validateChunkerOptions,
  type ChunkerOptions,
} from "../src/ingest/chunker.js";
import { scanMarkdownStructure } from "../src/ingest/markdown-structure.js";

const md = (chunkSize: number, chunkOverlap = 0): ChunkerOptions => ({ chunkSize, chunkOverlap, markdown: true });
const plain = (chunkSize: number, chunkOverlap = 0): ChunkerOptions => ({ chunkSize, chunkOverlap, markdown: false });

/** The code-point slice every chunk must equal. */
function cpSlice(content: string, start: number, end: number): string {
  return Array.from(content).slice(start, end).join("");
}

function expectSliceInvariant(content: string, chunks: ChunkSpan[]): void {
  for (const c of chunks) expect(c.text).toBe(cpSlice(content, c.start, c.end));
}

function errorCode(f: () => unknown): string | undefined {
  try {
    f();
  } catch (e) {
    return e instanceof GroundkitError ? e.code : `not a GroundkitError: ${String(e)}`;
  }
  return undefined;
}

const sentence = (i: number): string => `Sentence number ${i} says something useful.`;
const paragraph = (from: number, count: number): string =>
  Array.from({ length: count }, (_, k) => sentence(from + k)).join(" ");

describe("chunkText: whole documents", () => {
  it("gives [] for empty and whitespace-only content", () => {
    expect(chunkText("", md(100))).toEqual([]);
    expect(chunkText(" \n\t\n\u00a0\u3000 \n", md(100))).toEqual([]);
    expect(chunkText("   \n\n  ", plain(64))).toEqual([]);
  });

  it("keeps a document that fits as one trimmed chunk", () => {
    const content = "\n\n  Hello world.\n\nSecond paragraph.  \n\n";
    const chunks = chunkText(content, md(64));
    expect(chunks).toEqual([
      { start: 4, end: 35, startLine: 3, endLine: 5, text: "Hello world.\n\nSecond paragraph.", headingPath: [] },
    ]);
  });

  it("keeps a document whose trimmed length is exactly chunkSize as one chunk", () => {
    const body = "w".repeat(63) + "😀"; // 64 code points, 65 UTF-16 units
    const chunks = chunkText(`  ${body}\n\n`, plain(64));
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ start: 2, end: 66, text: body });
  });

  it("is deterministic", () => {
    const content = `# A\n\n${paragraph(0, 30)}\n\n## B\n\n${paragraph(30, 30)}`;
    expect(chunkText(content, md(200, 40))).toEqual(chunkText(content, md(200, 40)));
  });
});

describe("chunkText: Markdown structure", () => {
  const doc = [
    "# Install",
    "",
    paragraph(0, 3),
    "",
    "## Linux",
    "",
    paragraph(3, 3),
    "",
    "## macOS",
    "",
    paragraph(6, 3),
    "",
    "# Usage",
    "",
    paragraph(9, 3),
    "",
  ].join("\n");

  it("records the heading path of the section each chunk starts in", () => {
    const chunks = chunkText(doc, md(200));
    expectSliceInvariant(doc, chunks);
    expect(chunks.map((c) => [c.text.split("\n")[0], c.headingPath])).toEqual([
      ["# Install", ["Install"]],
      ["## Linux", ["Install", "Linux"]],
      ["## macOS", ["Install", "macOS"]],
      ["# Usage", ["Usage"]],
    ]);
  });

  it("packs consecutive small sections together while they fit", () => {
    const content = "# A\n\nalpha.\n\n## B\n\nbeta.\n\n## C\n\ngamma.\n\n# D\n\n" + paragraph(0, 4);
    const chunks = chunkText(content, md(100));
    expect(chunks[0]?.text).toBe("# A\n\nalpha.\n\n## B\n\nbeta.\n\n## C\n\ngamma.");
    expect(chunks[0]?.headingPath).toEqual(["A"]);
    expect(chunks[1]?.text.startsWith("# D\n\nSentence number 0")).toBe(true);
    expect(chunks[1]?.headingPath).toEqual(["D"]);
  });

  it("cuts at a heading rather than mid-paragraph, and starts a section with no overlap", () => {
    const content = `${paragraph(0, 2)}\n\n# Next\n\n${paragraph(2, 10)}`;
    const chunks = chunkText(content, md(200, 60));
    expect(chunks[0]?.text).toBe(paragraph(0, 2));
    expect(chunks[1]?.text.startsWith("# Next\n\n")).toBe(true);
    expect(chunks[1]?.headingPath).toEqual(["Next"]);
  });

  it("attaches a short heading (and a run of headings) to the text that follows", () => {
    const long = paragraph(0, 20); // far longer than a chunk
    const content = `Intro line.\n\n# Title\n\n## Sub\n\n${long}`;
    const chunks = chunkText(content, md(120, 20));
    expectSliceInvariant(content, chunks);
    expect(chunks[0]?.text).toBe("Intro line.");
    expect(chunks[1]?.text.startsWith("# Title\n\n## Sub\n\nSentence number 0 says")).toBe(true);
    // The chunk starts at "# Title": its path is that heading's.
    expect(chunks[1]?.headingPath).toEqual(["Title"]);
    for (const c of chunks) expect(c.text.split("\n").every((l) => l === "" || l.startsWith("#"))).toBe(false);
  });

  it("keeps a fenced code block whole when it fits, blank lines and # lines included", () => {
    const fence = [
      "```python",
      "# not a heading",
      "def f():",
      "",
      "    return 1",
      "",
      "",
      "print(f())",
      "```",
    ].join("\n");
    const content = `# Code\n\n${paragraph(0, 3)}\n\n${fence}\n\n${paragraph(3, 3)}\n`;
    const chunks = chunkText(content, md(160));
    expectSliceInvariant(content, chunks);
    expect(chunks.some((c) => c.text.includes(fence))).toBe(true);
    for (const c of chunks) expect(c.headingPath).toEqual(["Code"]);
  });

  it("splits a fenced block that cannot fit at line ends inside it", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `let v${i} = ${i};`);
    const content = "~~~js\n" + lines.join("\n") + "\n~~~\n";
    const chunks = chunkText(content, md(100));
    expectSliceInvariant(content, chunks);
    expect(chunks.length).toBeGreaterThan(3);
    for (const c of chunks.slice(1)) expect(c.text.startsWith("let v") || c.text === "~~~").toBe(true);
  });

  it("starts overlapping chunks at a line start when cutting between lines", () => {
    const lines = Array.from({ length: 40 }, (_, i) => `let v${i} = ${i};`);
    const content = "```js\n" + lines.join("\n") + "\n```\n";
    const chunks = chunkText(content, md(100, 30));
    expectSliceInvariant(content, chunks);
    for (let i = 1; i < chunks.length; i++) {
      const c = chunks[i] as ChunkSpan;
      expect(c.start).toBeLessThan((chunks[i - 1] as ChunkSpan).end);
      expect(c.text.startsWith("let v") || c.text === "```").toBe(true);
    }
  });

  it("breaks a run of headings too long for one chunk between headings, never inside one", () => {
    const titles = Array.from({ length: 12 }, (_, i) => `## Heading number ${i}`);
    const content = `${titles.join("\n")}\n\n${paragraph(0, 2)}`;
    const chunks = chunkText(content, md(100));
    expectSliceInvariant(content, chunks);
    for (const c of chunks) expect(c.text.split("\n").every((l) => l === "" || titles.includes(l) || l.startsWith("Sentence"))).toBe(true);
    const last = chunks.find((c) => c.text.includes("## Heading number 11"));
    expect(last?.text.startsWith("## Heading number 11\n\nSentence number 0")).toBe(true);
    expect(last?.headingPath).toEqual(["Heading number 11"]);
  });

  it("treats YAML front matter as text, not headings", () => {
    const content = `---\ntitle: x\n# a yaml comment\n---\n\n${paragraph(0, 5)}\n\n# Real\n\n${paragraph(5, 5)}`;
    const chunks = chunkText(content, md(260));
    expect(chunks[0]?.text.startsWith("---\ntitle: x\n# a yaml comment")).toBe(true);
    expect(chunks[0]?.headingPath).toEqual([]);
    expect(chunks.at(-1)?.headingPath).toEqual(["Real"]);
    expect(scanMarkdownStructure(content).headings.map((h) => h.text)).toEqual(["Real"]);
  });

  it("parses ATX headings the CommonMark way", () => {
    const s = scanMarkdownStructure(
      "#tag\n#5 not\n   ### Spaced ###\n    # indented code\n## Trailing#\n#\n####### seven\n# A \\#\n",
    );
    expect(s.headings.map((h) => [h.level, h.text])).toEqual([
      [3, "Spaced"],
      [2, "Trailing#"],
      [1, ""],
      [1, "A \\#"],
    ]);
  });

  it("ignores Markdown structure when markdown is false", () => {
    const content = `# One\n\n${paragraph(0, 6)}\n\n# Two\n\n${paragraph(6, 6)}`;
    for (const c of chunkText(content, plain(150))) expect(c.headingPath).toEqual([]);
  });
});

describe("chunkText: separators and overlap", () => {
  it("prefers paragraphs, then sentences, then words, then hard splits", () => {
    // Each sentence is 40 code points: two fit in 100, three do not.
    const content = `${paragraph(0, 3)}\n\n${paragraph(3, 3)}`;
    const chunks = chunkText(content, plain(100));
    expect(chunks.map((c) => c.text)).toEqual([paragraph(0, 2), sentence(2), paragraph(3, 2), sentence(5)]);

    const words = chunkText("lorem ipsum ".repeat(20).trim(), plain(64));
    for (const c of words) expect(c.text).toMatch(/^(lorem|ipsum)( (lorem|ipsum))*$/);

    const hard = chunkText("x".repeat(200), plain(64));
    expect(hard.map((c) => [c.start, c.end])).toEqual([
      [0, 64],
      [64, 128],
      [128, 192],
      [192, 200],
    ]);
  });

  it("overlaps a mid-paragraph cut by at most chunkOverlap, starting at a word or sentence", () => {
    const content = paragraph(0, 30);
    const chunks = chunkText(content, plain(150, 50));
    expectSliceInvariant(content, chunks);
    for (let i = 1; i < chunks.length; i++) {
      const prev = chunks[i - 1] as ChunkSpan;
      const cur = chunks[i] as ChunkSpan;
      expect(cur.start).toBeLessThan(prev.end);
      expect(prev.end - cur.start).toBeLessThanOrEqual(50);
      expect(content[cur.start - 1]).toBe(" ");
    }
  });

  it("overlaps hard splits of text with no separators", () => {
    const chunks = chunkText("y".repeat(300), plain(100, 20));
    expect(chunks.map((c) => [c.start, c.end])).toEqual([
      [0, 100],
      [80, 180],
      [160, 260],
      [240, 300],
    ]);
  });

  it("does not overlap across a paragraph boundary", () => {
    const content = `${paragraph(0, 3)}\n\n${paragraph(3, 3)}`;
    const chunks = chunkText(content, plain(150, 50));
    expect(chunks.map((c) => c.text)).toEqual([paragraph(0, 3), paragraph(3, 3)]);
  });

  it("ends a sentence at CJK full stops without spaces", () => {
    const s = "这是一个很长的句子用于测试分块器的行为是否正确无误。";
    const content = s.repeat(6);
    const chunks = chunkText(content, plain(64));
    for (const c of chunks) expect(c.text.endsWith("。")).toBe(true);
    expect(chunks.map((c) => c.text).join("")).toBe(content);
  });
});

describe("chunkText: code points, lines and pages", () => {
  it("gives code-point offsets with astral characters", () => {
    const content = "😀𠀀 ab\n\n" + "𠀀😀x ".repeat(40);
    const chunks = chunkText(content, plain(64, 10));
    expectSliceInvariant(content, chunks);
    expect(chunks[0]).toMatchObject({ start: 0, end: 5, text: "😀𠀀 ab" });
    expect(chunks[1]?.start).toBe(7);
    for (const c of chunks) expect(Array.from(c.text).length).toBeLessThanOrEqual(64);
  });

  it("never splits a surrogate pair nor a base from its combining mark", () => {
    const emoji = chunkText("😀".repeat(150), plain(64));
    expect(emoji.map((c) => [c.start, c.end])).toEqual([
      [0, 64],
      [64, 128],
      [128, 150],
    ]);
    for (const c of emoji) expect(c.text).toBe("😀".repeat(c.end - c.start));

    const accents = "e\u0301".repeat(100); // 200 code points
    const chunks = chunkText(accents, plain(65));
    expectSliceInvariant(accents, chunks);
    for (const c of chunks) {
      expect(c.text.startsWith("e")).toBe(true);
      expect(c.text.endsWith("\u0301")).toBe(true);
    }
  });

  it("computes 1-based inclusive line ranges", () => {
    const content = "first line\nsecond 😀 line\n\n" + Array.from({ length: 12 }, (_, i) => `row ${i} of the table`).join("\n");
    const chunks = chunkText(content, plain(80));
    expectSliceInvariant(content, chunks);
    const lines = content.split("\n");
    for (const c of chunks) {
      const first = c.text.split("\n")[0] as string;
      const last = c.text.split("\n").at(-1) as string;
      expect(lines[c.startLine - 1]?.includes(first)).toBe(true);
      expect(lines[c.endLine - 1]?.includes(last)).toBe(true);
      expect(c.endLine - c.startLine).toBe(c.text.split("\n").length - 1);
    }
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 2 });
  });

  it("reports the pages a chunk touches", () => {
    const pages = [paragraph(0, 3), paragraph(3, 3), "", paragraph(6, 3)];
    const content = pages.join("\n\n");
    const pageStarts: number[] = [];
    let at = 0;
    for (const p of pages) {
      pageStarts.push(at);
      at += Array.from(p).length + 2;
    }
    const chunks = chunkText(content, { chunkSize: 100, chunkOverlap: 0, markdown: false, pageStarts });
    expectSliceInvariant(content, chunks);
    for (const c of chunks) {
      const page = (cp: number): number => pageStarts.filter((s) => s <= cp).length;
      expect(c.pageStart).toBe(page(c.start));
      expect(c.pageEnd).toBe(page(c.end - 1));
    }
    expect(chunks[0]).toMatchObject({ pageStart: 1, pageEnd: 1 });
    expect(chunks.at(-1)).toMatchObject({ pageStart: 4, pageEnd: 4 });
    const spanning = chunkText(content, { chunkSize: 1000, chunkOverlap: 0, markdown: false, pageStarts });
    expect(spanning).toHaveLength(1);
    expect(spanning[0]).toMatchObject({ pageStart: 1, pageEnd: 4 });
    expect(chunkText(content, plain(1000))[0]?.pageStart).toBeUndefined();
  });
});

describe("validateChunkerOptions", () => {
  it("accepts the defaults", () => {
    expect(DEFAULT_CHUNKER_OPTIONS).toEqual({ chunkSize: 2400, chunkOverlap: 200 });
    expect(() => validateChunkerOptions({ ...DEFAULT_CHUNKER_OPTIONS, markdown: true })).not.toThrow();
    expect(() => validateChunkerOptions({ chunkSize: 64, chunkOverlap: 31, markdown: false })).not.toThrow();
  });

  it.each([
    ["a size below 64", { chunkSize: 63, chunkOverlap: 0, markdown: false }],
    ["a fractional size", { chunkSize: 100.5, chunkOverlap: 0, markdown: false }],
    ["a huge size", { chunkSize: 1e12, chunkOverlap: 0, markdown: false }],
    ["a NaN size", { chunkSize: Number.NaN, chunkOverlap: 0, markdown: false }],
    ["a string size", { chunkSize: "1200", chunkOverlap: 0, markdown: false }],
    ["a negative overlap", { chunkSize: 100, chunkOverlap: -1, markdown: false }],
    ["an overlap of half the size", { chunkSize: 100, chunkOverlap: 50, markdown: false }],
    ["an overlap above the size", { chunkSize: 100, chunkOverlap: 150, markdown: false }],
    ["a fractional overlap", { chunkSize: 100, chunkOverlap: 1.5, markdown: false }],
    ["a missing markdown flag", { chunkSize: 100, chunkOverlap: 0 }],
    ["not an object", null],
  ])("rejects %s with INVALID_CONFIG", (_name, options) => {
    expect(errorCode(() => validateChunkerOptions(options))).toBe("INVALID_CONFIG");
    expect(errorCode(() => chunkText("text", options as ChunkerOptions))).toBe("INVALID_CONFIG");
  });

  it.each([
    ["not starting at 0", [5, 10]],
    ["decreasing", [0, 10, 5]],
    ["empty", []],
    ["fractional", [0, 1.5]],
  ])("rejects pageStarts %s with INVALID_ARGUMENT", (_name, pageStarts) => {
    const o = { chunkSize: 100, chunkOverlap: 0, markdown: false, pageStarts };
    expect(errorCode(() => validateChunkerOptions(o))).toBe("INVALID_ARGUMENT");
  });

  it("rejects pageStarts past the end of the content", () => {
    const o = { chunkSize: 100, chunkOverlap: 0, markdown: false, pageStarts: [0, 4] };
    expect(errorCode(() => chunkText("ab😀", o))).toBe("INVALID_ARGUMENT"); // 3 code points
    expect(chunkText("ab😀x", o)[0]).toMatchObject({ pageStart: 1, pageEnd: 1 });
    expect(chunkText("ab😀xy", o)[0]).toMatchObject({ pageStart: 1, pageEnd: 2 });
  });
});
