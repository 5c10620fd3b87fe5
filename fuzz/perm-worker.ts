/**
 * The unprivileged verifier: a long-lived child process, started as user
 * `nobody` by a fuzz run that itself runs as root (where `chmod 000` does not
 * stop reads), so that "remove read permission" means something. It runs the
 * product's resolver exactly as `Collection.verify` wires it (same readers,
 * same caps), one JSON request per stdin line, one JSON answer per stdout line.
 *
 * Usage: node perm-worker.js <product-js-root>
 */
import { createInterface } from "node:readline";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import type { IndexedSource } from "../src/cite/indexed-source.js";

interface Request {
  id: number;
  citation: unknown;
  indexed: IndexedSource | undefined;
  baseDir: string | undefined;
  snapshotDir: string;
  originalText: string | undefined;
}

const root = process.argv[2];
if (!root) {
  process.stderr.write("usage: perm-worker <product-js-root>\n");
  process.exit(2);
}

async function load<T>(rel: string): Promise<T> {
  return (await import(pathToFileURL(join(root!, rel)).href)) as T;
}

const { verifyCitation } = await load<typeof import("../src/cite/verify.js")>("cite/verify.js");
const { readExtractedSource } = await load<typeof import("../src/cite/read-extracted-source.js")>("cite/read-extracted-source.js");
const { readSnapshotSource } = await load<typeof import("../src/cite/read-snapshot-source.js")>("cite/read-snapshot-source.js");
const { SnapshotStore } = await load<typeof import("../src/store/snapshots.js")>("store/snapshots.js");
const { DEFAULTS } = await load<typeof import("../src/core/config.js")>("core/config.js");
const { parseCitation } = await load<typeof import("../src/collection/index.js")>("collection/index.js");

process.stdout.write(JSON.stringify({ ready: true, uid: process.getuid?.() }) + "\n");

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const req = JSON.parse(line) as Request;
  try {
    const citation = parseCitation(req.citation);
    const snapshots = new SnapshotStore(req.snapshotDir);
    const verification = await verifyCitation(citation, {
      collection: "fuzz",
      indexed: req.indexed,
      baseDir: req.baseDir,
      maxFileSize: DEFAULTS.maxFileSize,
      originalText: req.originalText,
      readExtracted: (c, realPath) => readExtractedSource(c, realPath, DEFAULTS.maxFileSize),
      readSnapshot: (c) => readSnapshotSource(c, snapshots),
    });
    process.stdout.write(JSON.stringify({ id: req.id, verification }) + "\n");
  } catch (err) {
    process.stdout.write(JSON.stringify({ id: req.id, error: err instanceof Error ? `${err.name}: ${err.message}` : String(err) }) + "\n");
  }
}
