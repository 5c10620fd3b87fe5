/**
 * A page shaped like the PostgreSQL manual's (DocBook HTML: `id_link` `#`
 * anchors after every heading, `<pre class="programlisting">` examples with
 * `#`-comment lines) and like Sphinx's (`headerlink` `¶`), ingested for real:
 * the indexed text carries no Markdown fence and no anchor mark, a comment in
 * code is no heading, and every hit still verifies (issue 29).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openCollection, type Collection } from "../src/collection/index.js";
import { tempDir } from "./support/cli.js";

const PAGE = `<!DOCTYPE html>
<html><head><title>18.3. Starting the Database Server</title></head>
<body>
<div class="sect1" id="SERVER-START">
<div class="titlepage"><h2 class="title" style="clear: both">18.3. Starting the Database Server <a href="#SERVER-START" class="id_link">#</a></h2></div>
<p>Before anyone can access the database, you must start the database server. The database server program is
called <code class="command">postgres</code>.</p>
<pre class="programlisting">
$ postgres -D /usr/local/pgsql/data
# the server stays in the foreground
$ pg_ctl start -l logfile
</pre>
<div class="sect2" id="SERVER-START-FAILURES">
<h3 class="title">18.3.1. Server Start-up Failures <a href="#SERVER-START-FAILURES" class="id_link">#</a></h3>
<p>There are several common reasons the server might fail to start. Check the server's log file.</p>
<pre class="screen">
LOG:  could not bind IPv4 address "127.0.0.1": Address already in use
## not a heading either
</pre>
<h3>Sphinx style<a class="headerlink" href="#sphinx-style" title="Link to this heading">¶</a></h3>
<p>Another generator marks its headings with a pilcrow link; some with <a href="#s">§</a>a section sign.</p>
</div>
</div>
</body></html>
`;

let work: { dir: string; cleanup: () => void };
let col: Collection;

beforeAll(async () => {
  work = tempDir("grk-html-manual-");
  writeFileSync(join(work.dir, "server-start.html"), PAGE);
  col = await openCollection({ indexDir: join(work.dir, ".groundkit"), collection: "pg", create: true });
  await col.ingest([join(work.dir, "server-start.html")], { chunkSize: 400, chunkOverlap: 40 });
});
afterAll(async () => {
  await col?.close();
  work?.cleanup();
});

describe("HTML manual pages", () => {
  it("index text without Markdown fences or permalink marks, code comments not taken for headings, every hit verified", async () => {
    const hits = await col.search("server start log foreground address pilcrow", { topK: 20, verify: true });
    expect(hits.length).toBeGreaterThan(1);
    const all = hits.map((h) => h.text).join("\n");
    expect(all).toContain("$ postgres -D /usr/local/pgsql/data\n# the server stays in the foreground");
    expect(all).not.toContain("```");
    expect(all).not.toMatch(/[§¶]/);
    expect(all).not.toMatch(/ #$/m);
    expect(all).toMatch(/^## 18\.3\. Starting the Database Server$/m);
    for (const hit of hits) {
      expect(hit.verification?.verdict, hit.text).toBe("verified");
      for (const heading of hit.heading_path) expect(heading).not.toMatch(/foreground|not a heading|[#§¶]$/);
    }
    const code = hits.find((h) => h.text.includes("Address already in use"))!;
    expect(code.heading_path).toEqual(["18.3. Starting the Database Server", "18.3.1. Server Start-up Failures"]);
  });
});
