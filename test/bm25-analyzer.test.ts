/**
 * The BM25 analyzer: Lucene-English-like words (stopwords, possessives,
 * Porter stems), Unicode folding that leaves CJK, Hangul and marks-bearing
 * scripts intact, CJK bigrams with unigrams on the index side, and the
 * promise everything rests on: a text's query terms are among its index terms.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  ENGLISH_STOPWORDS,
  MAX_QUERY_TERMS,
  MAX_TOKEN_LENGTH,
  analyzeForIndex,
  analyzeQuery,
  analyzeWithOffsets,
} from "../src/analysis/analyzer.js";

describe("English words", () => {
  it("lowercases, removes stopwords and possessives, and Porter-stems", () => {
    expect(analyzeForIndex("The runners' running shoes")).toEqual(["runner", "run", "shoe"]);
    expect(analyzeForIndex("John's CITATIONS are verified")).toEqual(["john", "citat", "verifi"]);
    expect(analyzeForIndex("Relational databases generalize")).toEqual(["relat", "databas", "gener"]);
    // Both apostrophes, and a possessive that leaves a stopword.
    expect(analyzeForIndex("Mary’s it's")).toEqual(["mari"]);
  });

  it("drops exactly Lucene's English stopwords", () => {
    expect(ENGLISH_STOPWORDS.size).toBe(33);
    for (const w of ENGLISH_STOPWORDS) {
      expect(analyzeForIndex(w)).toEqual([]);
      expect(analyzeForIndex(w.toUpperCase())).toEqual([]);
    }
    // Common words that are not in Lucene's set stay.
    expect(analyzeForIndex("what which from")).toEqual(["what", "which", "from"]);
    expect(analyzeQuery("the of and")).toEqual([]);
  });

  it("keeps numbers and UAX #29 joiners inside words, splits on hyphens and colons", () => {
    expect(analyzeForIndex("U.S.A. e.g. 3.14 5,000 1;2 don't a:b covid-19 IL-6 2024 x_y")).toEqual([
      "u.s.a",
      "e.g",
      "3.14",
      "5,000",
      "1;2",
      "don't",
      "b", // "a:b" splits at the colon, and "a" is a stopword
      "covid",
      "19",
      "il",
      "6",
      "2024",
      "x_y",
    ]);
    // Joiners need letters (or digits) on both sides.
    expect(analyzeForIndex("end. 3. q,b x'")).toEqual(["end", "3", "q", "b", "x"]);
    expect(analyzeForIndex("1990s")).toEqual(["1990"]);
    expect(analyzeQuery("body:engine")).toEqual(["bodi", "engin"]);
    expect(analyzeForIndex("___ -- !!")).toEqual([]);
  });

  it("drops words longer than 64 characters, counting code points", () => {
    expect(analyzeForIndex("a".repeat(MAX_TOKEN_LENGTH))).toEqual(["a".repeat(MAX_TOKEN_LENGTH)]);
    expect(analyzeForIndex(`${"a".repeat(MAX_TOKEN_LENGTH + 1)} kept`)).toEqual(["kept"]);
    // 64 astral letters are 128 UTF-16 units but 64 characters.
    const astral = "𝒶".repeat(MAX_TOKEN_LENGTH);
    expect(analyzeForIndex(astral)).toHaveLength(1);
    expect(analyzeForIndex(astral + "𝒶")).toEqual([]);
  });
});

describe("Unicode folding", () => {
  it("folds Latin and Greek diacritics, compatibility forms and special letters", () => {
    expect(analyzeForIndex("Café naïve résumé")).toEqual(analyzeForIndex("cafe naive resume"));
    expect(analyzeForIndex("Cafe\u0301")).toEqual(["cafe"]); // decomposed input
    expect(analyzeForIndex("Ærø Straße Łódź œuvre")).toEqual(analyzeForIndex("aero strasse lodz oeuvre"));
    expect(analyzeForIndex("ＦＵＬＬ ﬁle ℌ")).toEqual(analyzeForIndex("full file h"));
    expect(analyzeForIndex("Ελληνικά ΣΟΦΟΣ σοφός")).toEqual(["ελληνικα", "σοφοσ", "σοφοσ"]);
    expect(analyzeForIndex("İstanbul")).toEqual(analyzeForIndex("istanbul"));
  });

  it("leaves marks that carry meaning in other scripts, and Cyrillic letters, alone", () => {
    expect(analyzeForIndex("हिन्दी भाषा")).toEqual(["हिन्दी", "भाषा"]);
    expect(analyzeForIndex("йод иод")).toEqual(["йод", "иод"]);
    expect(analyzeForIndex("Привет")).toEqual(["привет"]);
  });

  it("keeps Hangul syllables and kana voicing whole, even from decomposed input", () => {
    expect(analyzeForIndex("한국")).toEqual(["한", "한국", "국"]);
    expect(analyzeForIndex("한국".normalize("NFD"))).toEqual(["한", "한국", "국"]);
    expect(analyzeQuery("がぎ")).toEqual(["がぎ"]);
    expect(analyzeQuery("がぎ")).not.toEqual(analyzeQuery("かき"));
    expect(analyzeQuery("ｶﾞｷﾞ")).toEqual(["ガギ"]); // half-width katakana
  });
});

describe("CJK", () => {
  it("indexes overlapping bigrams plus unigrams, queries bigrams", () => {
    expect(analyzeForIndex("東京都")).toEqual(["東", "東京", "京", "京都", "都"]);
    expect(analyzeQuery("東京都")).toEqual(["東京", "京都"]);
    expect(analyzeQuery("全文検索エンジン")).toEqual(["全文", "文検", "検索", "索エ", "エン", "ンジ", "ジン"]);
  });

  it("a lone CJK character is a unigram on both sides", () => {
    expect(analyzeQuery("東")).toEqual(["東"]);
    expect(analyzeForIndex("東")).toEqual(["東"]);
    expect(analyzeForIndex("東京")).toContain("東");
    expect(analyzeQuery("x 京 y")).toEqual(["x", "京", "y"]);
  });

  it("splits mixed runs and handles astral ideographs", () => {
    // "iPhone" changes case: its whole form, then its part (identifier analysis, issue 27).
    expect(analyzeForIndex("iPhone手机2024")).toEqual(["iphon", "phone", "手", "手机", "机", "2024"]);
    expect(analyzeQuery("𠀀𠀁")).toEqual(["𠀀𠀁"]);
    expect(analyzeForIndex("𠀀𠀁")).toEqual(["𠀀", "𠀀𠀁", "𠀁"]);
  });
});

describe("queries", () => {
  it("every occurrence in text order, so a repeated term counts as often as it occurs", () => {
    expect(analyzeQuery("running runs RUN the ran running")).toEqual(["run", "run", "run", "ran", "run"]);
    expect(analyzeQuery("What is the running time of running?")).toEqual(["what", "run", "time", "run"]);
  });

  it("at most 64 distinct terms: the most repeated, ties by first appearance", () => {
    const many = Array.from({ length: 100 }, (_, i) => `w${i}x`).join(" ");
    const q = analyzeQuery(many);
    expect(q).toHaveLength(MAX_QUERY_TERMS);
    expect(q[0]).toBe("w0x");
    expect(q[63]).toBe("w63x");
    // A long, document-like query: the term it keeps repeating comes late but is kept, with its count.
    const doc = `${many} retrieval retrieval retrieval`;
    const kept = analyzeQuery(doc);
    expect(new Set(kept).size).toBe(MAX_QUERY_TERMS);
    expect(kept.filter((t) => t === "retriev")).toHaveLength(3);
    expect(kept).toContain("w0x");
    expect(kept).toContain("w62x");
    expect(kept).not.toContain("w63x");
    expect(analyzeQuery("")).toEqual([]);
    expect(analyzeQuery("!!! ... ---")).toEqual([]);
  });
});

// Text drawn from the scripts and characters the analyzer treats specially.
const pieces = [
  "the", "The", "running", "John's", "don't", "3.14", "5,000", "U.S.A.", "café", "e\u0301", "Straße", "ΣΟΦΟΣ",
  "東京", "東", "한국어", "が", "ｶﾞ", "हिन्दी", "𠀀", "😀", "ﬁ", "ℌ", "_", "-", ".", ",", "'", "’", ":", " ", "\n",
  "\u0000", "\ud800", "x".repeat(70), "A", "z", "9",
];
const text = fc
  .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 6, unit: "binary" })), { maxLength: 40 })
  .map((parts) => parts.join(""));

describe("properties", () => {
  it("every query term of a text is one of its index terms", () => {
    fc.assert(
      fc.property(text, (t) => {
        const index = new Set(analyzeForIndex(t));
        for (const q of analyzeQuery(t)) expect(index.has(q)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("tokens are non-empty, lowercase, within the length cap, never stopwords, never contain separators", () => {
    fc.assert(
      fc.property(text, (t) => {
        const tokens = analyzeForIndex(t);
        for (const tok of tokens) {
          expect(tok.length).toBeGreaterThan(0);
          expect(Array.from(tok).length).toBeLessThanOrEqual(MAX_TOKEN_LENGTH);
          expect(tok).toBe(tok.toLowerCase());
          expect(ENGLISH_STOPWORDS.has(tok)).toBe(false);
          expect(/\s/.test(tok) || tok.includes("\0")).toBe(false);
        }
        // Deterministic, and a query never carries more distinct terms than the cap.
        expect(analyzeForIndex(t)).toEqual(tokens);
        const q = analyzeQuery(t);
        expect(new Set(q).size).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      }),
      { numRuns: 500 },
    );
  });

  it("case and Latin diacritics never change the terms", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom("cafe", "resume", "naive", "running", "john's", "etude"), { maxLength: 8 }), (words) => {
        const plain = words.join(" ");
        const fancy = plain.toUpperCase().replace(/E/g, "É").replace(/A/g, "Ä");
        expect(analyzeForIndex(fancy)).toEqual(analyzeForIndex(plain));
      }),
    );
  });
});

describe("identifiers (issue 27)", () => {
  it("gives an identifier's whole form and its parts, in every spelling", () => {
    expect(analyzeForIndex("parseConfigFile")).toEqual(["parseconfigfil", "pars", "config", "file"]);
    expect(analyzeForIndex("parse_config_file")).toEqual(["parse_config_fil", "pars", "config", "file"]);
    expect(analyzeForIndex("HTMLParser")).toEqual(["htmlparser", "html", "parser"]);
    expect(analyzeForIndex("os.path")).toEqual(["os.path", "os", "path"]);
    expect(analyzeForIndex("naïveParser")).toEqual(["naivepars", "naiv", "parser"]);
  });

  it("leaves prose words whole: no parts for plain, capitalised, dotted-initial or numeric words", () => {
    for (const text of ["The runners ran", "Paris", "e.g. U.S.A", "3.14 and 5,000", "don't"]) {
      expect(analyzeForIndex(text)).toEqual(analyzeForIndex(text.toLowerCase()));
    }
    expect(analyzeForIndex("e.g. U.S.A 3.14")).toEqual(["e.g", "u.s.a", "3.14"]);
  });

  it("marks the parts where they sit in the original text", () => {
    expect(analyzeWithOffsets("call parseConfig now", new Set(["config"]))).toEqual([{ term: "config", start: 10, end: 16 }]);
    expect(analyzeWithOffsets("Café parseConfig", new Set(["config"]))).toEqual([{ term: "config", start: 10, end: 16 }]);
  });
});
