/**
 * Property: chunks of code files are exact, contiguous spans of the file, in
 * code points and lines, whatever the syntax chunker or its line fallback did:
 * `chunk.text === content.slice(start, end)`, trimmed, ordered, never overlapping,
 * never over the chunk size, and together covering every non-whitespace code point.
 * Files are made of real code fragments (with astral characters in strings and
 * comments), parsed with the real grammars.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { buildChunks } from "../src/ingest/build-chunks.js";
import { Dispatcher, type LoadedContent } from "../src/ingest/dispatch.js";

const FRAGMENTS: Record<string, string[]> = {
  "x.ts": [
    "import { a } from './a.js';\n",
    "/** Adds two numbers 😀. */\nexport function add(a: number, b: number): number {\n  return a + b;\n}\n",
    "// 𠀀 a comment with an astral CJK character\nconst s = '👩‍👩‍👧 family';\n",
    "export class Collection {\n  /** Search it. */\n  @logged\n  search(q: string): string[] {\n    const out: string[] = [];\n    for (const x of this.items) {\n      if (x.includes(q)) out.push(x);\n    }\n    return out;\n  }\n\n  private items: string[] = ['é', 'ñ'];\n}\n",
    "interface Shape {\n  area(): number;\n}\n\ntype Id = string;\n",
    "export const handler = async (req: Request): Promise<void> => {\n  await req.text();\n};\n",
  ],
  "x.py": [
    "import os\n",
    "@decorator\ndef f(a, b):\n    # comment 😀\n    return a + b\n",
    "class C(Base):\n    \"\"\"Docstring 𠀀.\"\"\"\n\n    def m(self):\n        for i in range(10):\n            print(i)\n        return None\n",
    "X = {'k': 'vé'}\n",
  ],
  "x.go": [
    "package main\n\n",
    "// F does things 😀.\nfunc F(a int) int {\n\tif a > 1 {\n\t\treturn a\n\t}\n\treturn 0\n}\n",
    "type T struct {\n\tName string // 𠀀\n}\n\nfunc (t *T) M() string { return t.Name }\n",
  ],
  "x.rs": [
    "/// Docs 😀\n#[derive(Debug)]\nstruct S { a: i32 }\n",
    "impl S {\n    fn m(&self) -> i32 {\n        let v = \"𠀀\";\n        self.a\n    }\n}\n",
    "fn main() {\n    println!(\"hi\");\n}\n",
  ],
};

/** Deliberately broken code: the file is chunked by lines. */
const BROKEN = ["(((( 😀 ]]]]\n", "}}}} {{{{ 𠀀\n"];

function checkInvariants(content: string, chunks: ReturnType<typeof buildChunks>, chunkSize: number): void {
  const cps = Array.from(content);
  const newlinesBefore = new Int32Array(cps.length + 1);
  for (let i = 0; i < cps.length; i++) newlinesBefore[i + 1] = newlinesBefore[i]! + (cps[i] === "\n" ? 1 : 0);
  const covered = new Uint8Array(cps.length);
  let prevEnd = -1;
  for (const c of chunks) {
    expect(c.text).toBe(cps.slice(c.start_offset, c.end_offset).join(""));
    expect(c.text.trim()).toBe(c.text);
    expect(c.end_offset - c.start_offset).toBeLessThanOrEqual(chunkSize);
    expect(c.start_offset).toBeGreaterThanOrEqual(prevEnd);
    expect(c.start_line).toBe(newlinesBefore[c.start_offset]! + 1);
    expect(c.end_line).toBe(newlinesBefore[c.end_offset - 1]! + 1);
    covered.fill(1, c.start_offset, c.end_offset);
    prevEnd = c.end_offset;
  }
  for (let i = 0; i < cps.length; i++) if (!/^\s$/u.test(cps[i]!)) expect(covered[i]).toBe(1);
}

describe("code chunks are exact spans of the file", () => {
  const dispatcher = new Dispatcher();
  for (const [name, fragments] of Object.entries(FRAGMENTS)) {
    it(`${name}: text === content.slice(start, end) in code points, for any file of fragments and any chunk size`, async () => {
      const loader = (await dispatcher.forPath(name))!;
      expect(loader).toBeDefined();
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.constantFrom(...fragments), { minLength: 1, maxLength: 30 }),
          fc.option(fc.tuple(fc.constantFrom(...BROKEN), fc.nat()), { freq: 3 }),
          fc.constantFrom("\n", "\n\n", "\n\n\n  "),
          fc.integer({ min: 64, max: 900 }),
          async (parts, broken, joiner, chunkSize) => {
            if (broken) parts.splice(broken[1] % (parts.length + 1), 0, broken[0]);
            const content = parts.join(joiner);
            const loaded = await loader.load(new TextEncoder().encode(content), name);
            // A failed check must not leave a parse tree behind (WASM memory outlives the run).
            try {
              check(loaded, name, content, broken !== null, chunkSize);
            } finally {
              loaded.code?.tree?.delete();
            }
          },
        ),
        { numRuns: 60, seed: 27 },
      );
    });
  }

  function check(loaded: LoadedContent, name: string, content: string, broken: boolean, chunkSize: number): void {
    expect(loaded.content).toBe(content);
    // Whole fragments parse; a broken one sends the file to line chunking, which says so.
    expect(loaded.code?.fallback !== undefined).toBe(broken);
    const chunks = buildChunks(`/repo/${name}`, loaded, { chunkSize, chunkOverlap: 0 });
    checkInvariants(content, chunks, chunkSize);
    for (const c of chunks) expect(c.code?.lang).toBeDefined();
  }
});
