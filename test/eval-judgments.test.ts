import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { GroundkitError } from "../src/core/errors.js";
import { CodePointText } from "../src/core/text.js";
import { loadJudgments, parseJudgments, resolveQuote } from "../src/eval/judgments.js";

let root: string;
let corpus: string;
let file: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), "grk-judgments-"));
  corpus = path.join(root, "corpus");
  mkdirSync(path.join(corpus, "guides"), { recursive: true });
  file = path.join(root, "judgments.jsonl");
  // BOM + CRLF + an astral character before the quotes: offsets must be code points of the
  // normalized content ("\uFEFF" dropped, CRLF -> LF).
  writeFileSync(path.join(corpus, "backups.md"), "\uFEFF# Backups 😀\r\n\r\nSnapshots run nightly at 02:15.\r\nRetention is thirty days.\r\n");
  writeFileSync(path.join(corpus, "guides", "tls.md"), "Renew certificates thirty days early. Renew keys yearly.\n");
  writeFileSync(path.join(corpus, "echo.md"), "aaa and the same phrase, the same phrase\n");
});

afterEach(() => {
  rmSync(root, { recursive: true, force: true });
});

function write(...lines: object[]): void {
  writeFileSync(file, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
}

async function failure(p: Promise<unknown>): Promise<GroundkitError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(GroundkitError);
    return err as GroundkitError;
  }
  throw new Error("expected a failure");
}

describe("loadJudgments", () => {
  it("resolves quotes to code-point spans of the normalized content", async () => {
    write(
      { query_id: "a", query: "when do snapshots run", category: "normal", gold: [{ doc: "backups.md", quote: "nightly at 02:15" }] },
      {
        query_id: "b",
        query: "renewal timing",
        category: "ambiguous",
        gold: [
          { doc: "guides/tls.md", quote: "thirty days early" },
          { doc: "backups.md", quote: "Retention is thirty days." },
        ],
        notes: "two answers",
      },
      { query_id: "c", query: "sourdough levain", category: "no_answer", gold: [] },
    );
    const js = await loadJudgments(file, corpus);
    expect(js.map((j) => j.query_id)).toEqual(["a", "b", "c"]);
    // Normalized content: "# Backups 😀\n\nSnapshots run nightly at 02:15.\nRetention is thirty days.\n"
    // "# Backups 😀" is 11 code points (the emoji counts once), then "\n\n" -> "Snapshots run " starts at 13,
    // "nightly at 02:15" starts at 13 + 14 = 27 and is 16 code points long.
    expect(js[0]!.gold).toEqual([{ doc: "backups.md", quote: "nightly at 02:15", start: 27, end: 43 }]);
    const normalized = new CodePointText("# Backups 😀\n\nSnapshots run nightly at 02:15.\nRetention is thirty days.\n");
    for (const g of js[1]!.gold) {
      if (g.doc === "backups.md") expect(normalized.slice(g.start, g.end)).toBe(g.quote);
    }
    expect(js[1]!.gold[0]).toEqual({ doc: "guides/tls.md", quote: "thirty days early", start: 19, end: 36 });
    expect(js[1]!.notes).toBe("two answers");
    expect(js[2]).toEqual({ query_id: "c", query: "sourdough levain", category: "no_answer", gold: [], notes: undefined });
  });

  it("loads the original groundkit's line format unchanged, tolerating extra fields and null notes", async () => {
    writeFileSync(
      file,
      [
        '{"query_id": "s1-renew", "query": "how early are certs renewed", "category": "normal", "gold": [{"doc": "guides/tls.md", "quote": "Renew certificates thirty days early"}]}',
        '{"query_id": "s1-noanswer-1", "query": "gum arabic cobalt", "category": "no_answer", "gold": [], "notes": null, "author": "x"}',
        '{"query_id": "s1-snap", "query": "snapshot schedule", "category": "adversarial", "gold": [{"doc": "backups.md", "quote": "Snapshots run nightly", "page": 3}], "reviewed": true}',
        "",
      ].join("\r\n"),
    );
    const js = await loadJudgments(file, corpus);
    expect(js).toHaveLength(3);
    expect(js[0]!.gold[0]).toMatchObject({ start: 0, end: 36 });
    expect(js[1]!.notes).toBeUndefined();
    expect(js[2]!.gold[0]).toEqual({ doc: "backups.md", quote: "Snapshots run nightly", start: 13, end: 34 });
  });

  it("fails closed when a quote is not found, naming query_id and doc", async () => {
    write({ query_id: "missing-quote", query: "q", category: "normal", gold: [{ doc: "guides/tls.md", quote: "Renew certificates weekly" }] });
    const err = await failure(loadJudgments(file, corpus));
    expect(err.code).toBe("JUDGMENT_INVALID");
    expect(err.message).toContain("missing-quote");
    expect(err.message).toContain("guides/tls.md");
    expect(err.message).toContain("not found");
  });

  it("fails closed when a quote occurs more than once, including overlapping occurrences", async () => {
    write({ query_id: "twice", query: "q", category: "normal", gold: [{ doc: "echo.md", quote: "the same phrase" }] });
    const err = await failure(loadJudgments(file, corpus));
    expect(err.code).toBe("JUDGMENT_INVALID");
    expect(err.message).toContain("twice");
    expect(err.message).toContain("echo.md");
    expect(err.message).toContain("more than once");
    expect(resolveQuote(new CodePointText("aaa"), "aa")).toBe("ambiguous"); // overlapping matches count
    expect(resolveQuote(new CodePointText("xaay"), "aa")).toEqual({ start: 1, end: 3 });
  });

  it("does not normalize a quote carrying CRLF into a match", async () => {
    write({ query_id: "crlf", query: "q", category: "normal", gold: [{ doc: "backups.md", quote: "02:15.\r\nRetention" }] });
    expect((await failure(loadJudgments(file, corpus))).message).toContain("not found");
  });

  it.each([
    [{ query_id: "x", query: "q", category: "no_answer", gold: [{ doc: "backups.md", quote: "Snapshots" }] }, "empty gold"],
    [{ query_id: "x", query: "q", category: "ambiguous", gold: [{ doc: "backups.md", quote: "Snapshots" }] }, "at least 2"],
    [{ query_id: "x", query: "q", category: "normal", gold: [] }, "at least one"],
    [{ query_id: "x", query: "q", category: "trivia", gold: [] }, "category"],
    [{ query_id: "x", query: "", category: "no_answer", gold: [] }, "query"],
    [{ query_id: "x", query: "q", category: "normal", gold: [{ doc: "../outside.md", quote: "a" }] }, "'..'"],
    [{ query_id: "x", query: "q", category: "normal", gold: [{ doc: "/etc/passwd", quote: "a" }] }, "relative"],
    [{ query_id: "x", query: "q", category: "normal", gold: [{ doc: "guides\\tls.md", quote: "a" }] }, "forward slashes"],
    [{ query_id: "x", query: "q", category: "normal", gold: [{ doc: "backups.md", quote: "" }] }, "quote"],
  ])("rejects an invalid line (%#: %s)", async (line, fragment) => {
    write(line);
    const err = await failure(loadJudgments(file, corpus));
    expect(err.code).toBe("JUDGMENT_INVALID");
    expect(err.message).toContain(":1:");
    expect(err.message).toContain(fragment);
  });

  it("rejects bad JSON and duplicate ids with the line number", () => {
    expect(() => parseJudgments('{"query_id": "a", "query": "q", "category": "no_answer", "gold": []}\n{oops', "j.jsonl")).toThrow(
      /j\.jsonl:2: invalid JSON/,
    );
    const dup = '{"query_id": "a", "query": "q", "category": "no_answer"}\n\n{"query_id": "a", "query": "r", "category": "no_answer"}';
    expect(() => parseJudgments(dup, "j.jsonl")).toThrow(/j\.jsonl:3: duplicate query_id "a"/);
  });

  it("rejects a missing document and a symlink that leaves the corpus", async () => {
    write({ query_id: "gone", query: "q", category: "normal", gold: [{ doc: "nope.md", quote: "x" }] });
    let err = await failure(loadJudgments(file, corpus));
    expect(err.message).toMatch(/gone: document nope\.md not found/);

    writeFileSync(path.join(root, "secret.md"), "top secret words\n");
    symlinkSync(path.join(root, "secret.md"), path.join(corpus, "link.md"));
    write({ query_id: "escape", query: "q", category: "normal", gold: [{ doc: "link.md", quote: "secret" }] });
    err = await failure(loadJudgments(file, corpus));
    expect(err.message).toMatch(/escape: document link\.md resolves outside/);
  });

  it("rejects a document that is not strict UTF-8", async () => {
    writeFileSync(path.join(corpus, "latin1.md"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    write({ query_id: "enc", query: "q", category: "normal", gold: [{ doc: "latin1.md", quote: "caf" }] });
    expect((await failure(loadJudgments(file, corpus))).message).toContain("not valid UTF-8");
  });

  it("asks an injected contentOf for extracted documents, once per document", async () => {
    writeFileSync(path.join(corpus, "page.html"), "<html><body><p>Rotate the <b>cluster CA</b> every two years.</p></body></html>");
    const lines = [
      { query_id: "h1", query: "q", category: "normal", gold: [{ doc: "page.html", quote: "cluster CA every two years" }] },
      { query_id: "h2", query: "q", category: "normal", gold: [{ doc: "page.html", quote: "Rotate the" }] },
    ];
    write(...lines);
    // Without an extractor the default refuses HTML rather than matching quotes against markup.
    expect((await failure(loadJudgments(file, corpus))).message).toContain("contentOf");

    const calls: string[] = [];
    const js = await loadJudgments(file, corpus, {
      contentOf: async (p) => {
        calls.push(p);
        return "Rotate the cluster CA every two years.";
      },
    });
    expect(calls).toHaveLength(1);
    expect(path.isAbsolute(calls[0]!)).toBe(true);
    expect(path.basename(calls[0]!)).toBe("page.html");
    expect(js[0]!.gold[0]).toMatchObject({ start: 11, end: 37 });
    expect(js[1]!.gold[0]).toMatchObject({ start: 0, end: 10 });
  });

  it("reports a missing judgments file as a wrong path, not a bad judgment", async () => {
    const err = await failure(loadJudgments(path.join(root, "absent.jsonl"), corpus));
    expect(err.code).toBe("SOURCE_NOT_FOUND");
    expect(err.message).toContain("absent.jsonl");
  });
});
