/**
 * Output that tells the truth (issue 29), through the real CLI: each test here failed on the
 * code before its fix.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { grk, grkAsync, tempDir } from "./support/cli.js";
import { passageNumber, startChatServer, type ChatServer } from "./support/chat-server.js";

let dir: string;
let cleanup: () => void;
let chat: ChatServer;

beforeAll(async () => {
  ({ dir, cleanup } = tempDir("grk-cli-truth-"));
  mkdirSync(join(dir, "docs"));
  writeFileSync(join(dir, "docs", "backups.md"), "# Backups\n\nBackups are kept for 30 days and then deleted.\n");
  writeFileSync(join(dir, "docs", "restore.md"), "# Restore\n\nA restore takes about an hour from the latest backup.\n");
  writeFileSync(join(dir, "docs", "keys.md"), "---\ntags: [security]\nowner: ops\n---\n# Keys\n\nKeys rotate every 90 days.\n");
  expect(grk(["ingest", "docs", "--collection", "pg"], { cwd: dir }).code).toBe(0);
  // One sentence quotes its passage, the other quotes words no passage holds.
  chat = await startChatServer((req) => ({
    text:
      `Backups are kept "for 30 days" [${passageNumber(req, "Backups are kept")}]. ` +
      `A restore takes "under five minutes" [${passageNumber(req, "restore takes")}].`,
  }));
});
afterAll(async () => {
  await chat.close();
  cleanup();
});

describe("grk verify", () => {
  it("verifies a search --json output in the collection the file names", () => {
    const res = grk(["search", "backups kept", "--collection", "pg", "--json"], { cwd: dir });
    expect(res.code).toBe(0);
    writeFileSync(join(dir, "h.json"), res.stdout);
    const verified = grk(["verify", "h.json"], { cwd: dir });
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(0);
    expect(verified.stdout).toMatch(/^verified {2}hit 1/);
  });

  it("an explicit --collection wins over the file's (verifying in a copy of the collection)", () => {
    writeFileSync(join(dir, "h2.json"), grk(["search", "backups kept", "--collection", "pg", "--json"], { cwd: dir }).stdout);
    const res = grk(["verify", "h2.json", "--collection", "other"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/COLLECTION_NOT_FOUND.*'other'/);
  });

  it("verifies an answer as a whole: a partly grounded answer exits non-zero and names its unfound quote", async () => {
    const args = ["answer", "how long are backups kept and how long does a restore take", "--collection", "pg", "--provider", "openai"];
    const res = await grkAsync([...args, "--model", "gpt-test", "--base-url", `${chat.origin}/v1`, "--allow-private-network", "--json"], { cwd: dir });
    expect(res.code).toBe(0);
    expect((JSON.parse(res.stdout) as { grounding: { verdict: string } }).grounding.verdict).toBe("partially grounded");
    writeFileSync(join(dir, "answer.json"), res.stdout);
    const verified = grk(["verify", "answer.json"], { cwd: dir });
    expect(verified.stderr).toBe("");
    expect(verified.code).toBe(1);
    expect(verified.stdout).toMatch(/^partially grounded {2}answer:/);
    expect(verified.stdout).toContain('not found  "under five minutes"');
  });
});

describe("grk ls", () => {
  it("suggests a next-page command that keeps the collection and page size, and that command works", () => {
    const first = grk(["ls", "--collection", "pg", "--limit", "2"], { cwd: dir });
    expect(first.code).toBe(0);
    const more = /^more: (.*)$/m.exec(first.stdout)?.[1];
    expect(more).toMatch(/^grk ls --collection pg --limit 2 --after \S+$/);
    const next = grk(more!.split(" ").slice(1), { cwd: dir });
    expect(next.stderr).toBe("");
    expect(next.code).toBe(0);
    expect(next.stdout).toContain("docs/restore.md");
    expect(next.stdout).not.toContain("more:");
  });
});

describe("grk search --filter", () => {
  it("an unknown key is an error naming the keys that exist and the near one", () => {
    const res = grk(["search", "keys", "--collection", "pg", "--filter", "pat=sql-*"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[INVALID_FILTER\]: Unknown filter key 'pat'.* Did you mean 'path'\? Keys: path, class, ext, tag, lang, symbol, ingested \(built in\); owner, tags \(front matter\)\./);
  });

  it("across collections, a field only one collection has is not an error; a field none has is", () => {
    mkdirSync(join(dir, "other"));
    writeFileSync(join(dir, "other", "plain.md"), "# Keys\n\nKeys are kept in the vault.\n");
    expect(grk(["ingest", "other", "--collection", "plain"], { cwd: dir }).code).toBe(0);
    const ok = grk(["search", "keys", "--collection", "pg,plain", "--filter", "owner=ops", "--json"], { cwd: dir });
    expect(ok.stderr).toBe("");
    expect((JSON.parse(ok.stdout) as { results: Array<{ collection: string }> }).results.map((h) => h.collection)).toEqual(["pg"]);
    const bad = grk(["search", "keys", "--collection", "pg,plain", "--filter", "ownr=ops"], { cwd: dir });
    expect(bad.stderr).toMatch(/Unknown filter key 'ownr'.*Did you mean 'owner'\?/);
  });
});

describe("status and hints", () => {
  it("grk status without --json shows the recorded roots", () => {
    const res = grk(["status", "--collection", "pg"], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^root docs {2}ingested \d{4}-/m);
  });

  it("DOCUMENT_NOT_FOUND points at grk ls and the path forms that work", () => {
    const res = grk(["get", "docs/nope.md", "--collection", "pg"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[DOCUMENT_NOT_FOUND\]/);
    expect(res.stderr).toMatch(/hint: Run `grk ls` to list the indexed documents; name one by its path \(relative to the current folder, or absolute\)/);
  });

  it("CHUNK_NOT_FOUND says a chunk id changes when the file is edited above the chunk", () => {
    const res = grk(["show", "0123456789abcdef0123456789abcdef", "--collection", "pg"], { cwd: dir });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/^error\[CHUNK_NOT_FOUND\]/);
    expect(res.stderr).toContain("editing the file at or above the chunk");
    expect(res.stderr).not.toContain("change only when content changes");
  });
});

describe("grk update", () => {
  it("counts the unsupported files it meets on every run instead of naming them again", () => {
    writeFileSync(join(dir, "docs", "diagram.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>");
    expect(grk(["ingest", "docs", "--collection", "pg"], { cwd: dir }).stdout).toContain("diagram.svg");
    const res = grk(["update", "--collection", "pg"], { cwd: dir });
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^unsupported \(not indexed\): 1 file\(s\), as every run/m);
    expect(res.stdout).not.toContain("diagram.svg");
  });
});
