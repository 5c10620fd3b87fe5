/**
 * The closing line CI reads must count a suite that failed outside its tests
 * (a failing beforeAll leaves its tests "skipped") as failed.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "..");
const dir = mkdtempSync(join(tmpdir(), "grk-reporter-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runVitest(files: Record<string, string>): string {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(
    join(dir, "vitest.config.mjs"),
    `export default { test: { globals: true, include: ["*.spec.mjs"], reporters: [${JSON.stringify(join(ROOT, "test/support/summary-reporter.ts"))}] } };\n`,
  );
  const res = spawnSync(process.execPath, [join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--root", dir, "--config", join(dir, "vitest.config.mjs")], {
    encoding: "utf8",
    env: { ...process.env, CI: "true", FORCE_COLOR: "0" },
  });
  return res.stdout + res.stderr;
}

describe("summary reporter", () => {
  it("counts a suite whose beforeAll throws as failed, beside its passing neighbours", () => {
    const out = runVitest({
      "ok.spec.mjs": `it("passes", () => {});\n`,
      "broken.spec.mjs": `beforeAll(() => { throw new Error("no browser"); });\nit("a", () => {});\nit("b", () => {});\n`,
    });
    const line = out.split("\n").find((l) => l.startsWith("tests: "));
    expect(line).toBe("tests: 1 passed, 1 failed, 2 skipped");
  });
});
