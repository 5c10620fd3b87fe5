#!/usr/bin/env node
/**
 * Installs what the test suite needs from outside npm, so `npm ci && npm test`
 * passes on a fresh machine as written: Debian's chromium for the web-page test
 * (playwright-core downloads no browser) and Debian's PostgreSQL server for the
 * PostgreSQL store tests (test/support/postgres-server.ts starts a throwaway
 * cluster of it; the package's own cluster is not used). Idempotent and quiet
 * when everything is present; says what it installs and why on stderr.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";

/** Whether some PostgreSQL server version is installed (/usr/lib/postgresql/<v>/bin/initdb). */
function hasPostgresServer() {
  const root = "/usr/lib/postgresql";
  return existsSync(root) && readdirSync(root).some((v) => existsSync(`${root}/${v}/bin/initdb`));
}

/** Debian packages the suite drives, with the check that shows each is installed. */
const NEEDED = [
  { pkg: "chromium", present: () => existsSync("/usr/bin/chromium"), why: "the web-page test drives a real browser" },
  { pkg: "postgresql", present: hasPostgresServer, why: "the PostgreSQL store tests run a real server on 127.0.0.1" },
];

const missing = NEEDED.filter((n) => !n.present());
if (missing.length === 0) process.exit(0);

const names = missing.map((m) => m.pkg);
for (const m of missing) process.stderr.write(`test setup: installing ${m.pkg} (${m.why})\n`);

const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
const hasSudo = !isRoot && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
if (!isRoot && !hasSudo) {
  process.stderr.write(
    `test setup: cannot install ${names.join(", ")}: not root and no passwordless sudo.\n` +
      `  Install them yourself: sudo apt-get update && sudo apt-get install -y ${names.join(" ")}\n`,
  );
  process.exit(1);
}
const run = (args) =>
  execFileSync(isRoot ? args[0] : "sudo", isRoot ? args.slice(1) : ["-n", ...args], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
try {
  run(["apt-get", "update"]);
  run(["apt-get", "install", "-y", "--no-install-recommends", ...names]);
} catch (err) {
  process.stderr.write(`test setup: apt-get failed (${err.message}); install ${names.join(" ")} and rerun.\n`);
  process.exit(1);
}
