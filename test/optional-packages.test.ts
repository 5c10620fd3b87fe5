/**
 * The install command an OPTIONAL_PACKAGE_MISSING error names (docs/decisions/0016-optional-heavy-parts.md),
 * for each place groundkit can be installed, and the golden corpus's default location.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { installCommand, loadOptional, optionalPackageMissing, pinnedSpec } from "../src/core/optional-packages.js";
import { GroundkitError } from "../src/core/errors.js";
import { goldenPaths } from "../src/eval/golden-corpus.js";

const tmp = mkdtempSync(join(tmpdir(), "grk-optional-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("install commands for a missing optional package", () => {
  it("pins the version groundkit's package.json declares", () => {
    expect(pinnedSpec("pdfjs-dist")).toBe("pdfjs-dist@5.6.205");
    expect(pinnedSpec("onnxruntime-node")).toBe("onnxruntime-node@1.30.0");
  });

  it("says npm ci in a clone, --prefix in a project, -g for a global install", () => {
    expect(installCommand(["pdfjs-dist@5.6.205"], "/home/me/src/groundkit")).toBe("npm ci (in /home/me/src/groundkit)");
    const project = join(tmp, "project");
    mkdirSync(join(project, "node_modules", ".bin"), { recursive: true });
    expect(installCommand(["pdfjs-dist@5.6.205"], join(project, "node_modules", "groundkit"))).toBe(
      `npm install --prefix ${project} pdfjs-dist@5.6.205`,
    );
    const global = join(tmp, "usr", "lib", "node_modules");
    mkdirSync(global, { recursive: true });
    expect(installCommand(["pdfjs-dist@5.6.205"], join(global, "groundkit"))).toBe("npm install -g pdfjs-dist@5.6.205");
  });

  it("skips onnxruntime-node's CUDA download in its command", () => {
    const global = join(tmp, "usr", "lib", "node_modules");
    mkdirSync(global, { recursive: true });
    const err = optionalPackageMissing("onnxruntime-node", undefined, join(global, "groundkit"));
    expect(err.code).toBe("OPTIONAL_PACKAGE_MISSING");
    expect(err.message).toContain("Install it with: npm install -g onnxruntime-node@1.30.0 --onnxruntime-node-install=skip");
    // In a clone, `npm ci` honours the clone's allowScripts: no flag needed.
    expect(optionalPackageMissing("onnxruntime-node").message).toMatch(/Install it with: npm ci \(in .+\)$/);
  });

  it("turns a missing package into the typed error and leaves other failures alone", async () => {
    const missing = await loadOptional("pdfjs-dist", () => import("pdfjs-dist-not-installed-here" as string)).catch((e: unknown) => e);
    // A different missing name is not pdfjs-dist: rethrown as is.
    expect(missing).not.toBeInstanceOf(GroundkitError);
    const named = await loadOptional("pdfjs-dist", () => {
      throw Object.assign(new Error("Cannot find package 'pdfjs-dist' imported from /x.js"), { code: "ERR_MODULE_NOT_FOUND" });
    }).catch((e: unknown) => e);
    expect(named).toBeInstanceOf(GroundkitError);
    expect((named as GroundkitError).code).toBe("OPTIONAL_PACKAGE_MISSING");
    const broken = await loadOptional("pdfjs-dist", () => {
      throw new Error("bad binary");
    }).catch((e: unknown) => e);
    expect((broken as Error).message).toBe("bad binary");
  });
});

describe("the golden corpus's default location", () => {
  it("uses ./evals when the working directory has one, else the package's copy", () => {
    const here = join(tmp, "with-evals");
    mkdirSync(join(here, "evals"), { recursive: true });
    writeFileSync(join(here, "evals", "judgments.jsonl"), "");
    expect(goldenPaths({}, here, "/pkg")).toEqual({ corpusDir: join("evals", "corpus"), judgments: join("evals", "judgments.jsonl") });
    expect(goldenPaths({}, join(tmp, "empty"), "/pkg")).toEqual({
      corpusDir: join("/pkg", "evals", "corpus"),
      judgments: join("/pkg", "evals", "judgments.jsonl"),
    });
    expect(goldenPaths({ corpusDir: "mine" }, join(tmp, "empty"), "/pkg")).toEqual({ corpusDir: "mine", judgments: join("evals", "judgments.jsonl") });
  });
});
