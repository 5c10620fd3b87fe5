/**
 * What the reliability tools' command lines share: writing the JSON report
 * (and `--out`), printing text or JSON, the exit code, and running `main` only
 * when the file is the process entry point.
 */
import { writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";

/** Print and save a run's report; exit code 0 when it passed, 1 otherwise. */
export function emitReport<R extends { ok: boolean }>(
  report: R,
  command: string,
  args: { json?: boolean; out?: string | undefined },
  renderText: (report: R, command: string) => string,
): void {
  const json = JSON.stringify({ ...report, command }, null, 2);
  if (args.out) writeFileSync(args.out, json + "\n");
  process.stdout.write((args.json ? json : renderText(report, command)) + "\n");
  process.exitCode = report.ok ? 0 : 1;
}

/** Run `main` when `moduleUrl` is the entry point; an unexpected failure prints its stack and exits 2. */
export function runIfMain(moduleUrl: string, name: string, main: () => Promise<void>): void {
  if (moduleUrl !== pathToFileURL(process.argv[1] ?? "").href) return;
  main().catch((err: unknown) => {
    process.stderr.write(`${name}: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(2);
  });
}
