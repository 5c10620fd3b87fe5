/**
 * The linear-time glob matcher: its syntax, its refusals, and agreement with
 * picomatch (what filters and --include used before) on the syntax both share.
 * Pathological patterns against long paths are in glob-hostile.test.ts, run in
 * child processes so a hang is caught rather than blocking this worker.
 */
import Database from "better-sqlite3";
import fc from "fast-check";
import picomatch from "picomatch";
import { describe, expect, it } from "vitest";
import { compileGlob, GLOB_LIMITS } from "../src/core/glob.js";
import { GLOB_STEPS_PER_STATEMENT, registerFunctions } from "../src/store/sqlite/functions.js";

const dotted = (pattern: string) => compileGlob(pattern, { dot: true });

describe("compileGlob: syntax", () => {
  it.each([
    ["guides/**", "guides", true],
    ["guides/**", "guides/a/b.md", true],
    ["guides/**", "guidesx/a", false],
    ["**/*.md", "a.md", true],
    ["**/*.md", "a/b/c.md", true],
    ["**/*.md", "a/b/c.mdx", false],
    ["a/**/b", "a/b", true],
    ["a/**/b", "a/x/y/b", true],
    ["a**b", "axxb", true],
    ["a**b", "ax/xb", false],
    ["*", "a/b", false],
    ["?.md", "a.md", true],
    ["?.md", "ab.md", false],
    ["[a-c]x", "bx", true],
    ["[!a-c]x", "bx", false],
    ["[^a-c]x", "dx", true],
    ["[]]", "]", true],
    ["[a-]", "-", true],
    ["{a,b}/**", "b/c", true],
    ["a{b,c{d,e}}", "acd", true],
    ["{,a}b", "b", true],
    ["{a}", "{a}", true],
    ["{a}", "a", false],
    ["a{", "a{", true],
    ["}", "}", true],
    ["[", "[", true],
    ["\\*", "*", true],
    ["\\*", "a", false],
    ["./a", "a", true],
    ["!*.md", "x.md", false],
    ["!*.md", "x.txt", true],
    ["https://example.com/**", "https://example.com/docs/", true],
    ["**/b", "/b", true],
    ["docs/😀?.md", "docs/😀𠀋.md", true],
    ["a\\/b", "a/b", true],
    ["a+b$^.|", "a+b$^.|", true],
  ])("%s vs %s → %s", (pattern, path, expected) => {
    expect(dotted(pattern)(path)).toBe(expected);
  });

  it("with dot: false, only a literal dot matches a segment's leading dot", () => {
    const m = (p: string) => compileGlob(p, { dot: false });
    expect(m("*.md")(".x.md")).toBe(false);
    expect(m(".*.md")(".x.md")).toBe(true);
    expect(m("?a")(".a")).toBe(false);
    expect(m("**/x")(".a/x")).toBe(false);
    expect(m("**/x")("a/.b/x")).toBe(false);
    expect(m("**/x")("a/b/x")).toBe(true);
    expect(m("a*")("a.b")).toBe(true);
    expect(dotted("*.md")(".x.md")).toBe(true);
  });
});

describe("compileGlob: refusals", () => {
  it.each([
    ["**/+(*)+(*)+(*)+(*)+(*)+(*)x", "extglob"],
    ["@(a|b)", "extglob"],
    ["!(a)", "extglob"],
    ["*(a)", "extglob"],
    ["?(a)", "extglob"],
    ["(a|b)", "unescaped '('"],
    ["a)", "unescaped ')'"],
    ["[[:alpha:]]", "POSIX class"],
    ["{1..9}", "range"],
    ["a\\", "lone"],
    ["[z-a]", "reversed"],
    ["{a,b}{c,d}{e,f}{g,h}{i,j}{k,l}", "alternatives"],
    ["x".repeat(GLOB_LIMITS.maxLength + 1), "longer than"],
    [`{${"x".repeat(120)},${"y".repeat(120)}}{a,b,c,d,e,f,g,h}`, "characters"],
  ])("%s is refused (%s)", (pattern, why) => {
    expect(() => compileGlob(pattern, { dot: true, errorCode: "INVALID_FILTER" })).toThrow(
      expect.objectContaining({ code: "INVALID_FILTER", message: expect.stringContaining(why) }),
    );
  });

  it("escaped parentheses match literally", () => {
    expect(dotted("**/Report \\(final\\).pdf")("a/Report (final).pdf")).toBe(true);
    expect(dotted("[(]x")("(x")).toBe(true);
  });
});

describe("compileGlob agrees with picomatch on the shared syntax", () => {
  // Atoms both read the same way; picomatch differs on exotic corners (e.g. `**.md`), which are not generated.
  const atom = fc.constantFrom("a", "b", ".", "*", "?", "[ab]", "[^a]", "{a,b}", "{a,.b}");
  const segment = fc.oneof(
    { weight: 1, arbitrary: fc.constant("**") },
    { weight: 4, arbitrary: fc.array(atom, { minLength: 1, maxLength: 4 }).map((a) => a.join("")) },
  );
  const pattern = fc
    .array(segment, { minLength: 1, maxLength: 4 })
    .map((s) => s.join("/"))
    .filter((p) => (p.match(/\{/g) ?? []).length <= 5) // 2^5 alternatives: within the limit
    // picomatch: `a/**` matches `a`, yet `a*/**` does not match `ab`; and a leading `**x` crosses '/'.
    .filter((p) => !/\*\/\*\*$/.test(p) && p.split("/").every((s) => s === "**" || !s.includes("**")));
  // Deliberate differences, so not generated (here `**` is always zero or more whole segments): picomatch lets `?` match a `.` segment and a class match a
  // leading dot with dot off; here a wildcard never stands for `.`/`..` or (dot off) a leading dot.
  const pathFor = (dot: boolean) =>
    fc
      .array(
        fc.stringMatching(/^[ab.]{1,4}$/).filter((s) => (dot ? s !== "." && s !== ".." : !s.startsWith("."))),
        { minLength: 1, maxLength: 4 },
      )
      .map((s) => s.join("/"));

  for (const dot of [true, false]) {
    it(`dot: ${dot}`, () => {
      fc.assert(
        fc.property(pattern, fc.array(pathFor(dot), { minLength: 1, maxLength: 8 }), (p, paths) => {
          const ours = compileGlob(p, { dot });
          const theirs = picomatch(p, { dot });
          for (const s of paths) expect(ours(s), `${p} vs ${s}`).toBe(theirs(s));
        }),
        { numRuns: 400, seed: 20240612 },
      );
    });
  }
});

describe("grk_glob in SQLite: one step budget per statement", () => {
  const db = new Database(":memory:");
  const fns = registerFunctions(db);
  db.exec("CREATE TABLE t (p TEXT)");
  // Long segments of a's: a 100-character piece is tried at every position of every segment.
  const long = Array.from({ length: 16 }, () => "a".repeat(255)).join("/");
  const insert = db.prepare("INSERT INTO t VALUES (?)");
  for (let i = 0; i < 2_000; i++) insert.run(`${long}${i}`);
  const count = (glob: string) => db.prepare("SELECT count(*) FROM t WHERE grk_glob(?, p)").pluck().get(glob);

  it("refuses a statement whose globs pass the budget with INVALID_FILTER, and the next statement starts afresh", () => {
    expect(() => fns.metered(() => count(`**/*${"a".repeat(100)}b*`))).toThrow(
      expect.objectContaining({ code: "INVALID_FILTER", message: expect.stringContaining(`needs more than ${GLOB_STEPS_PER_STATEMENT}`) }),
    );
    expect(fns.metered(() => count("**/*0"))).toBe(200);
  });

  it("fails closed outside a metered statement", () => {
    expect(() => count("**")).toThrow(/outside SqlFunctions.metered/);
  });
});
