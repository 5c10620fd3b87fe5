import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import {
  DEFAULT_EXTRACTOR_PROBES,
  createExtractorRegistry,
  extractorKindForExtension,
  getExtractorOf,
  getExtractorRegistry,
} from "../src/extract/registry.js";
import { installedPackage, packageIdentity } from "../src/extract/package-identity.js";
import { makePdf } from "./support/pdf-fixtures.js";

/** The version in node_modules/<name>/package.json, read independently of the code under test. */
function installedVersion(name: string): string {
  const manifest = JSON.parse(
    readFileSync(new URL(`../node_modules/${name}/package.json`, import.meta.url), "utf8"),
  ) as { version: string };
  return manifest.version;
}

describe("extractor registry", () => {
  it("activates every extractor with identities read from their package.json", async () => {
    const registry = await getExtractorRegistry();
    const pdfIdentity = `pdfjs-dist/${installedVersion("pdfjs-dist")}`;
    const htmlIdentity = `htmlparser2/${installedVersion("htmlparser2")}+groundkit-html/2`;
    const officeIdentity = `yauzl/${installedVersion("yauzl")}+htmlparser2/${installedVersion("htmlparser2")}`;
    expect(registry.get("pdf")?.identity).toBe(pdfIdentity);
    expect(registry.get("html")?.identity).toBe(htmlIdentity);
    expect(registry.problem("pdf")).toBeUndefined();
    expect(registry.problem("html")).toBeUndefined();
    expect(registry.get("office")?.identity).toBe(officeIdentity);
    expect(registry.activeIdentities()).toEqual([htmlIdentity, pdfIdentity, officeIdentity]);
    expect(registry.byIdentity(officeIdentity)).toBe(registry.get("office"));
    expect(registry.byIdentity(pdfIdentity)).toBe(registry.get("pdf"));
    expect(registry.byIdentity(htmlIdentity)).toBe(registry.get("html"));
    expect(registry.byIdentity("pdfjs-dist/0.0.1")).toBeUndefined();
    expect(registry.byIdentity("pdf-x/1")).toBeUndefined();
  });

  it("hands out working extractors", async () => {
    const registry = await getExtractorRegistry();
    const pdf = await registry.get("pdf")!.extract(await makePdf([["from the registry"]]));
    expect(pdf.text).toBe("from the registry");
    const html = await registry.get("html")!.extract(new TextEncoder().encode("<h2>Hi</h2>"));
    expect(html.text).toBe("## Hi");
  });

  it("is memoized per process", async () => {
    const [a, b] = await Promise.all([getExtractorRegistry(), getExtractorRegistry()]);
    const c = await getExtractorRegistry();
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(getExtractorRegistry()).toBe(getExtractorRegistry());
  });

  it("probes one kind on its own, sharing the outcome with the registry", async () => {
    const html = await getExtractorOf("html");
    expect(getExtractorOf("html")).toBe(getExtractorOf("html"));
    expect("extractor" in html && html.extractor).toBe((await getExtractorRegistry()).get("html"));
  });

  it("keeps one extractor when the other's dependency is missing, and says why", async () => {
    const registry = await createExtractorRegistry({
      ...DEFAULT_EXTRACTOR_PROBES,
      // A real failing dynamic import, as when pdfjs-dist is absent.
      pdf: async () => {
        const missing = "pdfjs-dist-not-installed-anywhere";
        await import(missing);
        throw new Error("unreachable: the import above must fail");
      },
    });
    expect(registry.get("pdf")).toBeUndefined();
    expect(registry.problem("pdf")).toMatch(/pdf extractor is unavailable: .*pdfjs-dist-not-installed-anywhere/);
    expect(registry.get("html")?.identity).toBe(`htmlparser2/${installedVersion("htmlparser2")}+groundkit-html/2`);
    expect(registry.problem("html")).toBeUndefined();
    expect(registry.activeIdentities()).toEqual([
      `htmlparser2/${installedVersion("htmlparser2")}+groundkit-html/2`,
      `yauzl/${installedVersion("yauzl")}+htmlparser2/${installedVersion("htmlparser2")}`,
    ]);
    expect(registry.byIdentity(`pdfjs-dist/${installedVersion("pdfjs-dist")}`)).toBeUndefined();
  });

  it("keeps the PDF extractor when the HTML probe is broken", async () => {
    const registry = await createExtractorRegistry({
      ...DEFAULT_EXTRACTOR_PROBES,
      // A probe can reject with anything, not only an Error.
      html: () => Promise.reject("parser exploded"),
    });
    expect(registry.get("html")).toBeUndefined();
    expect(registry.problem("html")).toBe("the html extractor is unavailable: parser exploded");
    expect(registry.get("pdf")?.kind).toBe("pdf");
  });
});

describe("extractorKindForExtension", () => {
  it("maps .pdf, .html and .htm case-insensitively, with or without the dot", () => {
    expect(extractorKindForExtension(".pdf")).toBe("pdf");
    expect(extractorKindForExtension(".PDF")).toBe("pdf");
    expect(extractorKindForExtension(".html")).toBe("html");
    expect(extractorKindForExtension(".HtM")).toBe("html");
    expect(extractorKindForExtension("htm")).toBe("html");
  });

  it("knows nothing else", () => {
    for (const ext of [".md", ".txt", "", ".", ".xhtml", ".pdfx", ".constructor", "toString", "__proto__"]) {
      expect(extractorKindForExtension(ext)).toBeUndefined();
    }
  });
});

describe("installedPackage", () => {
  it("reads packages with and without an exports map", () => {
    const html = installedPackage("htmlparser2"); // its exports map hides ./package.json
    expect(html.version).toBe(installedVersion("htmlparser2"));
    expect(html.identity).toBe(`htmlparser2/${html.version}`);
    expect(packageIdentity("pdfjs-dist")).toBe(`pdfjs-dist/${installedVersion("pdfjs-dist")}`);
  });

  it("says when a package is not installed", () => {
    expect(() => installedPackage("no-such-package-groundkit")).toThrow(/"no-such-package-groundkit" is not installed/);
  });
});
