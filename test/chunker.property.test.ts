import { describe, expect, it } from "vitest";
import fc from "fast-check";
import type { ChunkSpan } from "../src/core/contracts.js";
import { normalizeNewlines } from "../src/core/text.js";
import { chunkText, DEFAULT_CHUNKER_OPTIONS, type ChunkerOptions } from "../src/ingest/chunker.js";

// ---------------------------------------------------------------------------------------------
// Invariants, checked against an independent oracle (Array.from code points, /\s/u whitespace).
// ---------------------------------------------------------------------------------------------

const WS = /^\s$/u;

function checkInvariants(content: string, chunks: ChunkSpan[], o: ChunkerOptions): void {
  const cps = Array.from(content);
  // Termination and sanity: never more chunks than code points.
  expect(chunks.length).toBeLessThanOrEqual(cps.length);

  const trimmed = Array.from(content.trim());
  if (trimmed.length === 0) {
    expect(chunks).toEqual([]);
    return;
  }
  if (trimmed.length <= o.chunkSize) {
    expect(chunks).toHaveLength(1);
    expect(chunks[0]?.text).toBe(content.trim());
  }

  // newlinesBefore[i] = number of "\n" among cps[0..i)
  const newlinesBefore = new Int32Array(cps.length + 1);
  for (let i = 0; i < cps.length; i++) newlinesBefore[i + 1] = (newlinesBefore[i] as number) + (cps[i] === "\n" ? 1 : 0);

  const covered = new Uint8Array(cps.length);
  let prev: ChunkSpan | undefined;
  for (const c of chunks) {
    expect(Number.isInteger(c.start) && Number.isInteger(c.end)).toBe(true);
    expect(c.start).toBeGreaterThanOrEqual(0);
    expect(c.end).toBeLessThanOrEqual(cps.length);
    expect(c.end).toBeGreaterThan(c.start);
    // The slice invariant, in code points.
    expect(c.text).toBe(cps.slice(c.start, c.end).join(""));
    expect(c.end - c.start).toBeLessThanOrEqual(o.chunkSize);
    expect(WS.test(cps[c.start] as string)).toBe(false);
    expect(WS.test(cps[c.end - 1] as string)).toBe(false);
    expect(c.startLine).toBe((newlinesBefore[c.start] as number) + 1);
    expect(c.endLine).toBe((newlinesBefore[c.end - 1] as number) + 1);
    expect(Array.isArray(c.headingPath)).toBe(true);
    if (!o.markdown) expect(c.headingPath).toEqual([]);
    if (o.pageStarts) {
      const page = (cp: number): number => o.pageStarts!.filter((s) => s <= cp).length;
      expect(c.pageStart).toBe(page(c.start));
      expect(c.pageEnd).toBe(page(c.end - 1));
    }
    if (prev) {
      // Ordered, strictly progressing, overlap bounded.
      expect(c.start).toBeGreaterThan(prev.start);
      expect(c.end).toBeGreaterThan(prev.end);
      expect(prev.end - c.start).toBeLessThanOrEqual(o.chunkOverlap);
    }
    covered.fill(1, c.start, c.end);
    prev = c;
  }
  for (let i = 0; i < cps.length; i++) {
    if (!covered[i] && !WS.test(cps[i] as string)) {
      throw new Error(`code point ${i} (${JSON.stringify(cps[i])}) is in no chunk`);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Generators
// ---------------------------------------------------------------------------------------------

const optionsArb: fc.Arbitrary<ChunkerOptions> = fc
  .record({ chunkSize: fc.integer({ min: 64, max: 320 }), markdown: fc.boolean() })
  .chain((o) =>
    fc.integer({ min: 0, max: Math.floor((o.chunkSize - 1) / 2) }).map((chunkOverlap) => ({ ...o, chunkOverlap })),
  );

/** Pieces that stress separators, code points and Markdown syntax. */
const atom = fc.constantFrom(
  "a",
  "Z",
  "word",
  "de",
  "ünïcödé",
  " ",
  "   ",
  "\t",
  "\n",
  "\n\n",
  "\n \n",
  ".",
  "!",
  "?",
  "。",
  "！",
  "」",
  "\"",
  ")",
  "…",
  "😀",
  "𠀀",
  "中",
  "文",
  "e\u0301",
  "\u0301",
  "\u20dd",
  "\u200d",
  "👩‍💻",
  "👍🏽",
  "\ud83d",
  "\ude00",
  "\u00a0",
  "\u3000",
  "\u2028",
  "\ufeff",
  "\u000b",
  "#",
  "# ",
  "\n# H\n",
  "\n## Sub title ##\n",
  "\n```\n",
  "\n~~~~\n",
  "---\n",
  "-",
  "1.",
  "x".repeat(70),
  "😀".repeat(40),
  " ".repeat(150),
  "\n".repeat(90),
  " \t\u3000\n".repeat(60),
);

const mixedText = fc.array(atom, { maxLength: 250 }).map((a) => a.join(""));

const crlfText = fc
  .array(fc.constantFrom("line", "two words", " ", "\r\n", "\r", "\r\n\r\n", "\r\r", "end.", "😀", "# h"), {
    maxLength: 200,
  })
  .map((a) => normalizeNewlines(a.join("")));

const noSeparators = fc
  .array(fc.constantFrom("a", "b", "😀", "𠀀", "中", "e\u0301", "-", "_", "#", "`", "\u200d", "\ud83d"), {
    maxLength: 800,
  })
  .map((a) => a.join(""));

const anyString = fc.string({ unit: "binary", maxLength: 600 });
const graphemes = fc.string({ unit: "grapheme", maxLength: 400 });

// Markdown documents built from blocks whose positions we know, to check structure-aware
// behaviour against the generator itself rather than against a second parser.
type Block =
  | { kind: "heading"; level: number; title: string; text: string }
  | { kind: "para"; text: string }
  | { kind: "fence"; text: string };

const word = fc.constantFrom("alpha", "beta", "gamma", "δέλτα", "中文", "😀", "𠀀x", "e\u0301t", "the", "a");
const longWord = fc.constantFrom("verylongwordwithoutanybreaks".repeat(3), "😀".repeat(90));
const sentenceArb = fc
  .tuple(fc.array(fc.oneof({ weight: 12, arbitrary: word }, { weight: 1, arbitrary: longWord }), { minLength: 1, maxLength: 14 }), fc.constantFrom(".", "!", "?", "。", ""))
  .map(([ws, end]) => ws.join(" ") + end);
const paraArb: fc.Arbitrary<Block> = fc
  .tuple(fc.array(sentenceArb, { minLength: 1, maxLength: 8 }), fc.constantFrom(" ", "\n"))
  .map(([ss, sep]) => ({ kind: "para", text: ss.join(sep) }));
const headingArb: fc.Arbitrary<Block> = fc
  .tuple(fc.integer({ min: 1, max: 6 }), fc.array(word, { minLength: 1, maxLength: 3 }))
  .map(([level, ws]) => ({ kind: "heading", level, title: ws.join(" "), text: `${"#".repeat(level)} ${ws.join(" ")}` }));
const fenceArb: fc.Arbitrary<Block> = fc
  .tuple(
    fc.constantFrom("```", "~~~", "````"),
    fc.constantFrom("", "js", "python"),
    fc.array(fc.constantFrom("x = 1", "", "# not a heading", "  indented line", "print(x)  ", "😀𠀀", "a. b. c."), {
      maxLength: 14,
    }),
  )
  .map(([f, info, lines]) => ({ kind: "fence", text: `${f}${info}\n${lines.join("\n")}\n${f}` }));
// A heading is always followed by a paragraph, so a fence never sits right under a heading.
const sectionArb = fc
  .tuple(headingArb, paraArb, fc.array(fc.oneof(paraArb, fenceArb), { maxLength: 4 }))
  .map(([h, p, rest]) => [h, p, ...rest]);
const markdownDoc = fc
  .tuple(
    fc.boolean(),
    fc.array(fc.oneof(paraArb, fenceArb), { maxLength: 2 }),
    fc.array(sectionArb, { maxLength: 6 }),
  )
  .map(([frontMatter, preamble, sections]) => {
    const blocks: Block[] = [...preamble, ...sections.flat()];
    const parts: string[] = frontMatter ? ["---\ntitle: x\n# yaml comment\n---"] : [];
    let at = frontMatter ? Array.from(parts[0] as string).length + 2 : 0;
    const placed: Array<Block & { start: number; end: number }> = [];
    for (const b of blocks) {
      const len = Array.from(b.text).length;
      placed.push({ ...b, start: at, end: at + len });
      parts.push(b.text);
      at += len + 2;
    }
    return { content: parts.join("\n\n"), blocks: placed };
  });

// ---------------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------------

const RUNS = { numRuns: 300 };

describe("chunkText invariants (property)", () => {
  it.each([
    ["mixed separators, astral chars, marks and Markdown-ish syntax", mixedText],
    ["arbitrary code points", anyString],
    ["arbitrary graphemes", graphemes],
    ["CRLF/CR-normalized text", crlfText],
    ["text with no separators at all", noSeparators],
  ])("hold for %s", (_name, textArb) => {
    fc.assert(
      fc.property(textArb, optionsArb, (content, o) => {
        checkInvariants(content, chunkText(content, o), o);
      }),
      RUNS,
    );
  });

  it("hold for generated Markdown documents, as Markdown and as plain text", () => {
    fc.assert(
      fc.property(markdownDoc, optionsArb, ({ content }, o) => {
        checkInvariants(content, chunkText(content, o), o);
      }),
      RUNS,
    );
  });

  it("hold with page ranges", () => {
    const withPages = mixedText.chain((content) => {
      const n = Array.from(content).length;
      return fc
        .uniqueArray(fc.integer({ min: 0, max: n }), { maxLength: 6 })
        .map((cuts) => ({ content, pageStarts: [0, ...cuts.filter((c) => c > 0).sort((a, b) => a - b)] }));
    });
    fc.assert(
      fc.property(withPages, optionsArb, ({ content, pageStarts }, o) => {
        const opts = { ...o, pageStarts };
        checkInvariants(content, chunkText(content, opts), opts);
      }),
      RUNS,
    );
  });

  it("are deterministic", () => {
    fc.assert(
      fc.property(mixedText, optionsArb, (content, o) => {
        expect(chunkText(content, o)).toEqual(chunkText(content, o));
      }),
      { numRuns: 100 },
    );
  });
});

describe("chunkText Markdown structure (property)", () => {
  const mdOptions = optionsArb.map((o) => ({ ...o, markdown: true }));

  it("records the heading path of the section each chunk starts in", () => {
    fc.assert(
      fc.property(markdownDoc, mdOptions, ({ content, blocks }, o) => {
        const chunks = chunkText(content, o);
        for (const c of chunks) {
          const stack: Array<{ level: number; title: string }> = [];
          for (const b of blocks) {
            if (b.start > c.start) break;
            if (b.kind !== "heading") continue;
            while (stack.length > 0 && (stack.at(-1) as { level: number }).level >= b.level) stack.pop();
            stack.push(b);
          }
          expect(c.headingPath).toEqual(stack.map((s) => s.title));
        }
      }),
      RUNS,
    );
  });

  it("never separates a heading from the start of the text under it", () => {
    fc.assert(
      fc.property(markdownDoc, mdOptions, ({ content, blocks }, o) => {
        const chunks = chunkText(content, o);
        blocks.forEach((b, i) => {
          if (b.kind !== "heading") return;
          const contentStart = (blocks[i + 1] as { start: number }).start;
          for (const c of chunks) {
            if (c.start <= b.start && b.start < c.end) expect(c.end).toBeGreaterThan(contentStart);
          }
        });
      }),
      RUNS,
    );
  });

  it("keeps every fenced code block that fits in a chunk whole", () => {
    fc.assert(
      fc.property(markdownDoc, mdOptions, ({ content, blocks }, o) => {
        const chunks = chunkText(content, o);
        for (const b of blocks) {
          if (b.kind !== "fence" || b.end - b.start > o.chunkSize) continue;
          expect(chunks.some((c) => c.start <= b.start && b.end <= c.end)).toBe(true);
        }
      }),
      RUNS,
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Large inputs: checked through an independently built code point -> UTF-16 map, not Array.from
// per chunk.
// ---------------------------------------------------------------------------------------------

function codePointMap(content: string): Int32Array {
  const map = new Int32Array(content.length + 1);
  let cp = 0;
  let u = 0;
  for (const ch of content) {
    map[cp++] = u;
    u += ch.length;
  }
  map[cp] = u;
  return map.subarray(0, cp + 1);
}

function checkLarge(content: string, chunks: ChunkSpan[], o: ChunkerOptions): void {
  const map = codePointMap(content);
  const n = map.length - 1;
  const gapIsBlank = (from: number, to: number): boolean => content.slice(map[from], map[to]).trim() === "";
  expect(chunks.length).toBeGreaterThan(0);
  expect(gapIsBlank(0, (chunks[0] as ChunkSpan).start)).toBe(true);
  expect(gapIsBlank((chunks.at(-1) as ChunkSpan).end, n)).toBe(true);
  let prev: ChunkSpan | undefined;
  for (const c of chunks) {
    expect(c.end).toBeLessThanOrEqual(n);
    // Equal to the map's slice, so c.text has exactly end - start code points.
    expect(c.text === content.slice(map[c.start], map[c.end])).toBe(true);
    expect(c.end - c.start).toBeLessThanOrEqual(o.chunkSize);
    expect(c.text.trim()).toBe(c.text);
    if (prev) {
      expect(c.start).toBeGreaterThan(prev.start);
      expect(c.end).toBeGreaterThan(prev.end);
      expect(prev.end - c.start).toBeLessThanOrEqual(o.chunkOverlap);
      if (c.start > prev.end) expect(gapIsBlank(prev.end, c.start)).toBe(true);
    }
    prev = c;
  }
}

describe("chunkText on large inputs", () => {
  it("chunks a single 10 MB line with no separators", () => {
    const unit = "ab😀c𠀀defghij"; // 14 UTF-16 units, 12 code points
    const content = unit.repeat(Math.ceil((10 * 1024 * 1024) / unit.length));
    const o = { ...DEFAULT_CHUNKER_OPTIONS, markdown: true };
    const chunks = chunkText(content, o);
    checkLarge(content, chunks, o);
    // No whitespace anywhere: consecutive chunks must touch or overlap.
    for (let i = 1; i < chunks.length; i++) {
      expect((chunks[i] as ChunkSpan).start).toBeLessThanOrEqual((chunks[i - 1] as ChunkSpan).end);
    }
    expect(chunks.every((c) => c.startLine === 1 && c.endLine === 1)).toBe(true);
  });

  it("chunks a 10 MB Markdown file", () => {
    const parts: string[] = [];
    let size = 0;
    for (let i = 0; size < 10 * 1024 * 1024; i++) {
      const section =
        `${"#".repeat((i % 3) + 1)} Section ${i} 😀\n\n` +
        `Some paragraph text with words. Another sentence here! And a third one?\nA new line.\n\n` +
        "```js\n" +
        `const x = ${i};\n\nconsole.log(x);\n` +
        "```\n\n" +
        "Lorem ipsum dolor sit amet 𠀀. ".repeat(i % 50) +
        "\n\n";
      parts.push(section);
      size += section.length;
    }
    const content = parts.join("");
    const o = { ...DEFAULT_CHUNKER_OPTIONS, markdown: true };
    const chunks = chunkText(content, o);
    checkLarge(content, chunks, o);
    // All text sits under a heading; a chunk that starts at a heading carries that heading last.
    for (const c of chunks) {
      expect(c.headingPath.length).toBeGreaterThan(0);
      const m = /^#+ (.*)\n/.exec(c.text);
      if (m) expect(c.headingPath.at(-1)).toBe(m[1]);
    }
  });
});
