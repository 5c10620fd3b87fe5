/**
 * test/support/at-exit.ts: what a test or benchmark started outside itself (a
 * PostgreSQL cluster, a `grk serve` child, a scratch folder) is cleaned up
 * however its process ends, a signal included, and the signal still ends the
 * process. The module runs in a child process, transpiled from its source.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };
let module: string;

beforeAll(() => {
  work = tempDir("grk-at-exit-");
  const source = readFileSync(resolve(import.meta.dirname, "support/at-exit.ts"), "utf8");
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
  module = join(work.dir, "at-exit.mjs");
  writeFileSync(module, outputText);
});
afterAll(() => work?.cleanup());

let n = 0;
/**
 * A child that registers clean-ups writing marker files (the second one forgotten again), says
 * "ready", and waits; `prelude` runs first. Resolves when it ends, with how it ended and which ran.
 */
async function child(send: NodeJS.Signals, prelude = ""): Promise<{ code: number | null; signal: NodeJS.Signals | null; ran: string[] }> {
  const dir = join(work.dir, `case-${++n}`);
  const marks = ["kept", "forgotten", "second"].map((m) => join(`${dir}-${m}`));
  const script = `${prelude}
    import { writeFileSync } from "node:fs";
    const { atExit } = await import(${JSON.stringify(module)});
    atExit(() => writeFileSync(${JSON.stringify(marks[0])}, "x"));
    atExit(() => writeFileSync(${JSON.stringify(marks[1])}, "x"))();
    atExit(() => writeFileSync(${JSON.stringify(marks[2])}, "x"));
    console.log("ready");
    setInterval(() => {}, 1000);`;
  const proc = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((ready) => proc.stdout.once("data", () => ready()));
  proc.kill(send);
  const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((done) => proc.once("exit", (c, s) => done([c, s])));
  return { code, signal, ran: ["kept", "forgotten", "second"].filter((_, i) => existsSync(marks[i]!)) };
}

describe("clean-up at exit", () => {
  it.each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("runs on %s, and the signal still ends the process", async (signal) => {
    expect(await child(signal)).toEqual({ code: null, signal, ran: ["kept", "second"] });
  });

  it("runs when the process turns the signal into an exit of its own", async () => {
    const ended = await child("SIGTERM", `process.once("SIGTERM", () => process.exit(143));`);
    expect(ended).toEqual({ code: 143, signal: null, ran: ["kept", "second"] });
  });
});
