import { beforeAll, describe, expect, it } from "vitest";
import fc from "fast-check";
import { readFileSync } from "node:fs";
import { GroundkitError } from "../src/core/errors.js";
import type { Extractor } from "../src/extract/extractor.js";
import { createHtmlExtractor, detectHtmlCharset, HTML_META_PRESCAN_BYTES } from "../src/extract/html.js";
import { serializeHtml } from "../src/extract/html-serializer.js";

let html: Extractor;
const utf8 = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = (s: string): string => serializeHtml(s).text;

/** windows-1252 bytes of a Latin-1 string (identical to ISO-8859-1 below 0x80 and at 0xA0-0xFF). */
const latin1 = (s: string): Uint8Array => Uint8Array.from(Buffer.from(s, "latin1"));

beforeAll(async () => {
  html = await createHtmlExtractor();
});

async function extractError(bytes: Uint8Array, hints?: { charset?: string }): Promise<GroundkitError> {
  const err = await html.extract(bytes, hints).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GroundkitError);
  return err as GroundkitError;
}

describe("HTML extractor: identity", () => {
  it("identifies itself by the installed htmlparser2 version", () => {
    const manifest = JSON.parse(
      readFileSync(new URL("../node_modules/htmlparser2/package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(html.kind).toBe("html");
    expect(html.identity).toBe(`htmlparser2/${manifest.version}+groundkit-html/2`);
  });
});

describe("HTML serializer", () => {
  it("turns a whole page into blocks, headings, lists and paragraphs", async () => {
    const page = `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8"><title>  The   Guide </title>
  <style>body { color: red }</style><script>var leaked = "script text";</script>
  <link rel="stylesheet" href="x.css">
</head>
<body>
  <nav><a href="/">Home</a> <a href="/docs">Docs</a></nav>
  <h1>Getting   started</h1>
  <p>Install the <b>tool</b>, then
     run <code>grk&nbsp;init</code>.</p>
  <h2>Options</h2>
  <ul>
    <li>fast</li>
    <li>safe
      <ul><li>really</li></ul>
    </li>
  </ul>
  <div>one</div><div>two</div>
  <p>a<br>b</p>
</body></html>`;
    const result = await html.extract(utf8(page));
    expect(result.title).toBe("The Guide");
    expect(result.text).toBe(
      [
        "Home Docs",
        "",
        "# Getting started",
        "",
        "Install the tool, then run grk init.",
        "",
        "## Options",
        "",
        "- fast",
        "- safe",
        "  - really",
        "",
        "one",
        "two",
        "",
        "a",
        "b",
      ].join("\n"),
    );
  });

  it("drops script, style, noscript, template, svg and math content", () => {
    const out = text(
      "<p>keep</p><script>alert('x')</script><style>.a{}</style><noscript>enable js</noscript>" +
        "<template><p>tmpl</p></template><svg><title>icon</title><text>svgtext</text></svg>" +
        "<math><mi>x</mi></math><p>also kept</p>",
    );
    expect(out).toBe("keep\n\nalso kept");
    const withScriptTags = text("<p>x<script>document.write('<p>nope</p>')</script>y</p>");
    expect(withScriptTags).toBe("xy");
  });

  it("never inlines the title, and ignores a title inside svg", () => {
    const r = serializeHtml("<svg><title>Icon</title></svg><title>Real</title><p>body</p>");
    expect(r.title).toBe("Real");
    expect(r.text).toBe("body");
    expect(serializeHtml("<p>no title</p>").title).toBeUndefined();
    expect(serializeHtml("<title>   </title><p>x</p>").title).toBeUndefined();
  });

  it("decodes named, decimal and hex entities, astral ones included", () => {
    expect(text("<p>caf&eacute; &amp; cr&#232;me &lt;b&gt; &#x1F600; &quot;q&quot; &copy;</p>")).toBe(
      'café & crème <b> \u{1F600} "q" ©',
    );
  });

  it("emits headings h1-h6 as ATX headings on one line each", () => {
    const out = text("<h1>One</h1><h2>Two</h2><h3>Three</h3><h4>Four</h4><h5>Five</h5><h6>Six</h6>");
    expect(out).toBe("# One\n\n## Two\n\n### Three\n\n#### Four\n\n##### Five\n\n###### Six");
    expect(text("<h2>Split<br>across <div>lines</div></h2>after")).toBe("## Split across lines\n\nafter");
    expect(text("<p>x</p><h3>  </h3><p>y</p>")).toBe("x\n\ny");
  });

  it("collapses inline whitespace and joins inline elements without inventing spaces", () => {
    expect(text("<p>  lots \t of \n\n   space  </p>")).toBe("lots of space");
    expect(text("<p>foo<b>bar</b> <i>baz</i></p>")).toBe("foobar baz");
    expect(text("<p>&nbsp;</p><p>a&nbsp;&nbsp;b</p>")).toBe("a b");
    expect(text("text\r\nwith\rcarriage returns")).toBe("text with carriage returns");
  });

  it("keeps pre content verbatim, without Markdown fences, and says where each block is", () => {
    const input = "<p>before</p><pre>\n  indented\n\n\n\tx = 1  \n# not a heading\n</pre><p>after</p>";
    const out = serializeHtml(input);
    expect(out.text).toBe("before\n\n  indented\n\n\n\tx = 1\n# not a heading\n\nafter");
    expect(out.codeBlocks).toEqual([{ start: 8, end: 8 + "  indented\n\n\n\tx = 1\n# not a heading".length }]);
    expect(text("<pre><code>a &lt; b<br>c</code></pre>")).toBe("a < b\nc");
    expect(serializeHtml("<pre><code>a &lt; b<br>c</code></pre>").codeBlocks).toEqual([{ start: 0, end: 7 }]);
    expect(text("<pre>has ``` inside</pre>")).toBe("has ``` inside");
    expect(text("<p>x</p><pre>   \n\n</pre><p>y</p>")).toBe("x\n\ny");
    // The earlier form, which EPUB chapters keep.
    expect(serializeHtml("<pre>has ``` inside</pre>", { fencedCode: true }).text).toBe("````\nhas ``` inside\n````");
  });

  it("drops permalink anchors (PostgreSQL id_link #, Sphinx headerlink ¶, §) and keeps real links", () => {
    const page =
      '<div class="sect1" id="SQL-SYNTAX"><h2 class="title">4.1. Lexical Structure <a href="#SQL-SYNTAX" class="id_link">#</a></h2>' +
      '<p>A token can be a key word. <a class="link" href="#SQL-KEYWORDS">Key words</a> are listed.</p>' +
      '<h3>Install<a class="headerlink" href="#install" title="Link to this heading">¶</a></h3>' +
      '<h4 id="x">Notes <a href="#x" aria-hidden="true"><span>§</span></a></h4>' +
      '<p>See <a href="#top">#</a>hash and <a href="https://example.org/#x">§ 4</a>.</p></div>';
    expect(text(page)).toBe(
      "## 4.1. Lexical Structure\n\nA token can be a key word. Key words are listed.\n\n### Install\n\n#### Notes\n\nSee hash and § 4.",
    );
    // The earlier form keeps them.
    expect(serializeHtml(page, { fencedCode: true }).text).toContain("Lexical Structure #");
  });

  it("puts table rows on lines with cells joined by |", () => {
    const out = text(
      "<table><caption>Sizes</caption><thead><tr><th>Name</th><th>Size</th></tr></thead>" +
        "<tbody><tr><td>a</td><td>1 KB</td></tr><tr><td>b</td><td>2 KB</td></tr></tbody></table><p>done</p>",
    );
    expect(out).toBe("Sizes\nName | Size\na | 1 KB\nb | 2 KB\n\ndone");
  });

  it("separates paragraphs by exactly one blank line and line blocks by one newline", () => {
    expect(text("<p>a</p><p></p><p></p><p>b</p>")).toBe("a\n\nb");
    expect(text("a<br><br><br><br>b")).toBe("a\n\nb");
    expect(text("<section><p>a</p></section><section><div><div>b</div></div></section>")).toBe("a\n\nb");
    expect(text("<li>loose item</li><li></li>tail")).toBe("- loose item\ntail");
    expect(text("<ol><li><p>para in item</p><p>second</p></li></ol>")).toBe("- para in item\n\nsecond");
  });

  it("copes with unclosed and stray tags", () => {
    expect(text("<p>one<p>two<li>x<li>y</ul>tail")).toBe("one\n\ntwo\n- x\n- ytail");
    expect(text("</div></p>text</span>")).toBe("text");
    expect(text("<pre>never closed\n  indented")).toBe("never closed\n  indented");
  });

  it("produces normalized output for arbitrary tag soup (property)", () => {
    const fragment = fc.constantFrom(
      "<p>", "</p>", "<div>", "</div>", "<br>", "<li>", "</li>", "<ul>", "</ul>", "<h2>", "</h2>",
      "<table>", "<tr>", "<td>", "</td>", "</tr>", "</table>", "<b>", "</b>", "<script>x</script>",
      " ", "  ", "\n", "\t", "\r\n", "&nbsp;", "&amp;", "word", "café", "\u{1F600}", "<hr>", "<h1>", "</h1>",
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 40 }), (parts) => {
        const out = text(parts.join(""));
        expect(out).not.toMatch(/\r/);
        expect(out).not.toMatch(/[ \t]$/m);
        expect(out).not.toMatch(/\n\n\n/);
        expect(out).toBe(out.replace(/^\n+|\n+$/g, ""));
        expect(out).not.toMatch(/^\s/);
        expect(text(parts.join(""))).toBe(out);
      }),
      { numRuns: 300 },
    );
  });
});

describe("HTML extractor: charsets", () => {
  it("decodes UTF-8 by default and strips a UTF-8 BOM", async () => {
    expect((await html.extract(utf8("<p>café \u{20000}</p>"))).text).toBe("café \u{20000}");
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...utf8("<p>bom</p>")]);
    expect((await html.extract(withBom)).text).toBe("bom");
  });

  it("decodes windows-1252 bytes declared by <meta charset>", async () => {
    const bytes = latin1('<html><head><meta charset="windows-1252"><title>Caf\xe9</title></head><body><p>d\xe9j\xe0 vu \x80 \x93q\x94 \x96 \x81</p></body></html>');
    const r = await html.extract(bytes);
    expect(r.title).toBe("Café");
    // 0x80-0x9F use the WHATWG windows-1252 table (Node 20's own decoder treats them as ISO-8859-1).
    expect(r.text).toBe("déjà vu € \u201cq\u201d \u2013 \u0081");
  });

  it("reads the charset from <meta http-equiv=content-type>, unquoted and self-closed forms", async () => {
    const httpEquiv = latin1('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1"><p>na\xefve</p>');
    expect((await html.extract(httpEquiv)).text).toBe("naïve");
    const unquoted = latin1("<meta charset=latin1/><p>fa\xe7ade</p>");
    expect((await html.extract(unquoted)).text).toBe("façade");
  });

  it("decodes Shift_JIS declared in <meta>", async () => {
    // "日本" in Shift_JIS: 93 FA 96 7B
    const bytes = new Uint8Array([...utf8('<meta charset="shift_jis"><p>'), 0x93, 0xfa, 0x96, 0x7b, ...utf8("</p>")]);
    expect((await html.extract(bytes)).text).toBe("日本");
  });

  it("lets the charset hint override <meta>, and a BOM override both", async () => {
    const bytes = utf8('<meta charset="windows-1252"><p>café</p>');
    expect((await html.extract(bytes, { charset: "utf-8" })).text).toBe("café");
    expect((await html.extract(bytes)).text).toBe("cafÃ©");
    const utf16 = new Uint8Array([0xff, 0xfe, ...Buffer.from("<p>wide ☃</p>", "utf16le")]);
    expect((await html.extract(utf16, { charset: "windows-1252" })).text).toBe("wide ☃");
  });

  it("detects the charset in WHATWG order and skips what it cannot use", () => {
    expect(detectHtmlCharset(utf8("<p>x</p>"))).toEqual({ encoding: "utf-8", source: "default" });
    expect(detectHtmlCharset(utf8("<meta charset=latin1>"))).toEqual({ encoding: "windows-1252", source: "<meta> declaration" });
    expect(detectHtmlCharset(utf8("<meta charset=latin1>"), "no-such-charset")).toEqual({
      encoding: "windows-1252",
      source: "<meta> declaration",
    });
    expect(detectHtmlCharset(utf8("<p>x</p>"), "Shift_JIS")).toEqual({ encoding: "shift_jis", source: "charset hint" });
    expect(detectHtmlCharset(utf8('<!-- <meta charset="koi8-r"> --><meta charset="iso-8859-2">')).encoding).toBe("iso-8859-2");
    expect(detectHtmlCharset(utf8('<meta charset="bogus"><meta charset="koi8-r">')).encoding).toBe("koi8-r");
    expect(detectHtmlCharset(utf8('<meta charset="utf-16le">')).encoding).toBe("utf-8");
    expect(detectHtmlCharset(utf8('<meta charset="x-user-defined">')).encoding).toBe("windows-1252");
    const late = "<!--" + "x".repeat(HTML_META_PRESCAN_BYTES) + '--><meta charset="koi8-r">';
    expect(detectHtmlCharset(utf8(late)).source).toBe("default");
  });

  it("refuses bytes that are not valid UTF-8 with FILE_NOT_UTF8 and the byte offset", async () => {
    const bytes = latin1("<p>caf\xe9</p>"); // Latin-1 é without any charset declaration
    const err = await extractError(bytes);
    expect(err.code).toBe("FILE_NOT_UTF8");
    expect(err.message).toMatch(/not valid UTF-8.*byte 6/);
    expect(err.detail).toMatchObject({ byteOffset: 6, encoding: "utf-8" });
  });

  it("refuses bytes invalid in a declared non-UTF-8 charset with EXTRACTION_FAILED", async () => {
    // 0x85 0x40 is an unassigned Shift_JIS sequence.
    const bytes = new Uint8Array([...utf8('<meta charset="shift_jis"><p>'), 0x85, 0x40, ...utf8("</p>")]);
    const err = await extractError(bytes);
    expect(err.code).toBe("EXTRACTION_FAILED");
    expect(err.message).toMatch(/not valid shift_jis/);
  });

  it("is deterministic and leaves the bytes untouched", async () => {
    const bytes = latin1('<meta charset="windows-1252"><h2>T\xeate</h2><p>x</p>');
    const copy = bytes.slice();
    const a = await html.extract(bytes);
    const b = await html.extract(bytes);
    expect(b).toEqual(a);
    expect(a.text).toBe("## Tête\n\nx");
    expect(Buffer.from(bytes).equals(Buffer.from(copy))).toBe(true);
  });
});
