/**
 * Citations checked together share one read per source (a PDF is re-extracted
 * once per search, not once per hit), while containment stays per citation
 * and a failed read is not cached.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IndexedSource } from "../src/cite/indexed-source.js";
import { verifyCitation, type VerifyContext } from "../src/cite/verify.js";
import type { Citation } from "../src/core/contracts.js";
import { sha256 } from "../src/core/text.js";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
const CONTENT = "alpha beta gamma delta";

beforeAll(() => {
  work = tempDir("grk-cache-");
  mkdirSync(join(work.dir, "base"));
  writeFileSync(join(work.dir, "base", "doc.pdf"), "bytes do not matter: the extractor is stubbed by the context");
});
afterAll(() => work.cleanup());

function citation(start: number, end: number, source = join(work.dir, "base", "doc.pdf")): Citation {
  return {
    document_id: "d",
    chunk_id: `c${start}`,
    source,
    source_class: "extracted",
    extractor: "x@1",
    start_offset: start,
    end_offset: end,
    start_line: 1,
    end_line: 1,
    text_hash: sha256(CONTENT.slice(start, end)),
  };
}

/** The collection's record that vouches for `c`. */
function indexedAs(c: Citation): IndexedSource {
  return { source: c.source, source_class: c.source_class, extractor: c.extractor };
}

describe("shared reads during verification", () => {
  it("re-extracts a source once for several citations, and still checks containment per citation", async () => {
    let reads = 0;
    const ctx: VerifyContext = {
      collection: "c",
      indexed: indexedAs(citation(0, 0)),
      baseDir: join(work.dir, "base"),
      maxFileSize: 1 << 20,
      readExtracted: async () => {
        reads++;
        return { text: CONTENT };
      },
      readCache: new Map(),
    };
    expect((await verifyCitation(citation(0, 5), ctx)).verdict).toBe("verified");
    expect((await verifyCitation(citation(6, 10), ctx)).verdict).toBe("verified");
    expect(reads).toBe(1);
    const elsewhere = citation(0, 5, join(work.dir, "elsewhere.pdf"));
    const outside = await verifyCitation(elsewhere, { ...ctx, indexed: indexedAs(elsewhere) });
    expect(outside).toMatchObject({ verdict: "unresolvable", detail: expect.stringMatching(/outside the base directory/) });
    expect(reads).toBe(1);
  });

  it("does not cache a failed read", async () => {
    let reads = 0;
    const ctx: VerifyContext = {
      collection: "c",
      indexed: indexedAs(citation(0, 0)),
      baseDir: join(work.dir, "base"),
      maxFileSize: 1 << 20,
      readExtracted: async () => {
        reads++;
        if (reads === 1) throw new Error("transient");
        return { text: CONTENT };
      },
      readCache: new Map(),
    };
    await expect(verifyCitation(citation(0, 5), ctx)).rejects.toThrow("transient");
    expect((await verifyCitation(citation(0, 5), ctx)).verdict).toBe("verified");
    expect(reads).toBe(2);
  });
});
