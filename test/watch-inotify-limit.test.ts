/**
 * `grk ingest --watch` when the system will not watch the folder (issue 25 #18): with
 * no inotify instance left for the user it used to log a warning, "watch" nothing and
 * exit 13 two seconds later (an unsettled await). Now it fails at once with a typed
 * error naming the limit to raise. The instances are really exhausted: a helper holds
 * every one the user may have and then runs the CLI. As root it does so as user
 * `nobody` (uid 65534), so no other process on the machine loses an instance.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, tempDir } from "./support/cli.js";

let work: { dir: string; cleanup: () => void };

/** Holds every inotify instance this user may open, then execs the command given (which inherits none it can use). */
const EXHAUST = `
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
held = []
while True:
    fd = libc.inotify_init()
    if fd < 0:
        break
    held.append(fd)
if ctypes.get_errno() != 24 or not held:
    sys.exit("could not exhaust inotify instances (errno %d after %d)" % (ctypes.get_errno(), len(held)))
os.execvp(sys.argv[1], sys.argv[1:])
`;

beforeAll(() => {
  work = tempDir("grk-inotify-");
  mkdirSync(join(work.dir, "docs"));
  writeFileSync(join(work.dir, "docs", "a.md"), "# A\n\nSomething to index.\n");
  writeFileSync(join(work.dir, "exhaust.py"), EXHAUST);
  for (const p of [work.dir, join(work.dir, "docs")]) chmodSync(p, 0o777);
});
afterAll(() => work?.cleanup());

describe("grk ingest --watch without an inotify instance", () => {
  it("fails at once with WATCH_UNAVAILABLE naming fs.inotify.max_user_instances, and watches nothing", () => {
    const asNobody = process.getuid?.() === 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [];
    const argv = [...asNobody, "/usr/bin/python3", join(work.dir, "exhaust.py"), process.execPath, CLI];
    const r = spawnSync(argv[0]!, [...argv.slice(1), "ingest", join(work.dir, "docs"), "--watch", "--index-dir", join(work.dir, "idx"), "--no-progress"], {
      cwd: work.dir,
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(r.signal, r.stderr).toBeNull();
    expect(r.status, r.stderr).toBe(1);
    expect(r.stderr).toContain(`error[WATCH_UNAVAILABLE]: Cannot watch ${join(work.dir, "docs")}: no inotify instance is left for this user (EMFILE).`);
    expect(r.stderr).toContain("hint: Raise the limit (`sudo sysctl fs.inotify.max_user_instances=512`");
    expect(r.stderr).not.toContain("watching 1 folder tree");
    expect(r.stderr).not.toMatch(/\n\s+at /); // no stack trace
  });
});
