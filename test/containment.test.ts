import { promises as fsp, realpathSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { fsErrorToGroundkit, isWithin, resolveContained, resolveContainedSync } from "../src/core/containment.js";
import { GroundkitError } from "../src/core/errors.js";

describe("isWithin", () => {
  it("accepts the parent itself and its descendants", () => {
    expect(isWithin("/srv/docs", "/srv/docs")).toBe(true);
    expect(isWithin("/srv/docs/", "/srv/docs")).toBe(true);
    expect(isWithin("/srv/docs/a/b.md", "/srv/docs")).toBe(true);
    expect(isWithin("/srv/docs/a/b.md", "/srv/docs/")).toBe(true);
  });
  it("refuses the prefix trick and parents", () => {
    expect(isWithin("/srv/docs2/a.md", "/srv/docs")).toBe(false);
    expect(isWithin("/srv/docs2", "/srv/docs")).toBe(false);
    expect(isWithin("/srv", "/srv/docs")).toBe(false);
    expect(isWithin("/srv/docs/../secret", "/srv/docs")).toBe(false);
  });
  it("treats a name starting with two dots as a child, not a parent", () => {
    expect(isWithin("/srv/docs/..notes", "/srv/docs")).toBe(true);
    expect(isWithin("/srv/docs/...", "/srv/docs")).toBe(true);
  });
  it("handles the root directory", () => {
    expect(isWithin("/", "/")).toBe(true);
    expect(isWithin("/etc/passwd", "/")).toBe(true);
    expect(isWithin("/", "/etc")).toBe(false);
  });
  it("rejects relative inputs instead of guessing a cwd", () => {
    expect(() => isWithin("a/b", "/srv")).toThrow(GroundkitError);
    expect(() => isWithin("/srv/a", "srv")).toThrow(GroundkitError);
  });
});

describe("fsErrorToGroundkit", () => {
  it("maps errno codes onto the catalogue", () => {
    const err = (code: string) => Object.assign(new Error(code), { code });
    expect(fsErrorToGroundkit(err("ENOENT"), "/x").code).toBe("SOURCE_NOT_FOUND");
    expect(fsErrorToGroundkit(err("ENOTDIR"), "/x").code).toBe("SOURCE_NOT_FOUND");
    expect(fsErrorToGroundkit(err("EACCES"), "/x").code).toBe("FILE_UNREADABLE");
    expect(fsErrorToGroundkit(err("EPERM"), "/x").code).toBe("FILE_UNREADABLE");
    expect(fsErrorToGroundkit(err("EIO"), "/x").message).toContain("EIO");
    const own = new GroundkitError("PATH_ESCAPES_BASE", "kept");
    expect(fsErrorToGroundkit(own, "/x")).toBe(own);
  });
});

type Resolver = (p: string, base: string) => Promise<string>;
const variants: [string, Resolver][] = [
  ["resolveContained", resolveContained],
  ["resolveContainedSync", async (p, base) => resolveContainedSync(p, base)],
];

async function codeOf(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(GroundkitError);
    const e = err as GroundkitError;
    return { code: e.code, message: e.message };
  }
  throw new Error("expected a GroundkitError, got a result");
}

describe.each(variants)("%s", (_name, resolve) => {
  let tmp: string;
  let base: string;
  let base2: string;
  let outside: string;

  beforeEach(async () => {
    // realpath the temp dir so expectations hold even if os.tmpdir() is itself a symlink.
    tmp = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), "grk-containment-")));
    base = path.join(tmp, "base");
    base2 = path.join(tmp, "base2");
    outside = path.join(tmp, "outside");
    await fsp.mkdir(path.join(base, "sub"), { recursive: true });
    await fsp.mkdir(base2);
    await fsp.mkdir(outside);
    await fsp.writeFile(path.join(base, "sub", "a.md"), "a");
    await fsp.writeFile(path.join(base2, "b.md"), "b");
    await fsp.writeFile(path.join(outside, "secret.md"), "s");
  });

  afterEach(async () => {
    vi.restoreAllMocks();
    await fsp.chmod(path.join(base, "sub"), 0o755).catch(() => undefined);
    await fsp.rm(tmp, { recursive: true, force: true });
  });

  it("returns the real path of a contained file, and accepts the base itself", async () => {
    expect(await resolve(path.join(base, "sub", "a.md"), base)).toBe(path.join(base, "sub", "a.md"));
    expect(await resolve(base, base)).toBe(base);
    expect(await resolve(path.join(base, "sub", "..", "sub", "a.md"), base)).toBe(path.join(base, "sub", "a.md"));
  });

  it("refuses a lexical `..` escape before touching the filesystem", async () => {
    const missingBase = path.join(tmp, "does-not-exist");
    const realpath = vi.spyOn(fsp, "realpath");
    const realpathNative = vi.spyOn(realpathSync, "native");
    // Any filesystem access would report the missing base (SOURCE_NOT_FOUND) instead.
    const r = await codeOf(resolve(path.join(missingBase, "..", "outside", "secret.md"), missingBase));
    expect(r.code).toBe("PATH_ESCAPES_BASE");
    expect(r.message).toBe(
      `${path.join(outside, "secret.md")} resolves outside the base directory ${missingBase}`,
    );
    expect(realpath).not.toHaveBeenCalled();
    expect(realpathNative).not.toHaveBeenCalled();
    // Control: the spies do see the resolution of a path that passes the lexical check.
    await resolve(base, base);
    expect(realpath.mock.calls.length + realpathNative.mock.calls.length).toBeGreaterThan(0);
  });

  it("refuses the prefix trick (/base vs /base2)", async () => {
    const r = await codeOf(resolve(path.join(base2, "b.md"), base));
    expect(r.code).toBe("PATH_ESCAPES_BASE");
    // Through a symlink too: lexically inside, really in base2.
    await fsp.symlink(path.join(base2, "b.md"), path.join(base, "to-base2.md"));
    const viaLink = await codeOf(resolve(path.join(base, "to-base2.md"), base));
    expect(viaLink.code).toBe("PATH_ESCAPES_BASE");
  });

  it("refuses a symlink that escapes, naming the path and the base", async () => {
    const link = path.join(base, "sub", "leak.md");
    await fsp.symlink(path.join(outside, "secret.md"), link);
    const r = await codeOf(resolve(link, base));
    expect(r.code).toBe("PATH_ESCAPES_BASE");
    expect(r.message).toBe(`${link} resolves outside the base directory ${base}`);
  });

  it("refuses a path that leaves through a symlinked folder and `..`", async () => {
    // base/hop -> outside; base/hop/../base2 is lexically base/base2 but the OS goes to tmp/base2.
    await fsp.symlink(outside, path.join(base, "hop"));
    await fsp.mkdir(path.join(base, "base2"));
    const r = await codeOf(resolve(`${path.join(base, "hop")}/../base2/b.md`, base));
    expect(r.code).toBe("PATH_ESCAPES_BASE");
  });

  it("reports a missing file and a dangling symlink as SOURCE_NOT_FOUND", async () => {
    const missing = await codeOf(resolve(path.join(base, "nope.md"), base));
    expect(missing.code).toBe("SOURCE_NOT_FOUND");
    expect(missing.message).toContain(path.join(base, "nope.md"));

    const dangling = path.join(base, "dangling.md");
    await fsp.symlink(path.join(base, "gone.md"), dangling);
    const r = await codeOf(resolve(dangling, base));
    expect(r.code).toBe("SOURCE_NOT_FOUND");
    expect(r.message).toContain("symlink");
  });

  it("reports a missing base directory as SOURCE_NOT_FOUND", async () => {
    const missingBase = path.join(tmp, "no-base");
    const r = await codeOf(resolve(path.join(missingBase, "a.md"), missingBase));
    expect(r.code).toBe("SOURCE_NOT_FOUND");
    expect(r.message).toContain("base directory");
  });

  it("resolves the base too when the base itself is a symlink", async () => {
    const linkBase = path.join(tmp, "link-base");
    await fsp.symlink(base, linkBase);
    expect(await resolve(path.join(linkBase, "sub", "a.md"), linkBase)).toBe(path.join(base, "sub", "a.md"));
    // A symlink in the real base pointing elsewhere is still refused.
    await fsp.symlink(path.join(outside, "secret.md"), path.join(base, "leak.md"));
    expect((await codeOf(resolve(path.join(linkBase, "leak.md"), linkBase))).code).toBe("PATH_ESCAPES_BASE");
  });

  it("reports a symlink loop as FILE_UNREADABLE", async () => {
    await fsp.symlink(path.join(base, "loop-b"), path.join(base, "loop-a"));
    await fsp.symlink(path.join(base, "loop-a"), path.join(base, "loop-b"));
    const r = await codeOf(resolve(path.join(base, "loop-a"), base));
    expect(r.code).toBe("FILE_UNREADABLE");
    expect(r.message).toContain("symbolic links");
  });

  it("reports a file under an untraversable folder as FILE_UNREADABLE (or resolves it as root)", async () => {
    const sub = path.join(base, "sub");
    await fsp.chmod(sub, 0o000);
    // Root ignores permission bits: probe instead of assuming.
    const blocked = await fsp.stat(path.join(sub, "a.md")).then(
      () => false,
      () => true,
    );
    if (blocked) {
      expect((await codeOf(resolve(path.join(sub, "a.md"), base))).code).toBe("FILE_UNREADABLE");
    } else {
      expect(await resolve(path.join(sub, "a.md"), base)).toBe(path.join(sub, "a.md"));
    }
  });
});
