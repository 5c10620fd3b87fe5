/**
 * Snapshots: the indexed content of fetched URLs, stored under
 * `<index-dir>/<collection>.snapshots/<document_id>` so verification re-reads
 * the local copy and never the network. Writes are atomic (temp file + rename,
 * 0600); symlinks are never followed on read or write.
 */
import { constants } from "node:fs";
import { lstat, mkdir, open, readdir, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { GroundkitError } from "../core/errors.js";

const DOCUMENT_ID = /^[0-9a-f]{32}$/;
/** Fatal, and a leading U+FEFF is kept: it would be part of the stored text. */
const SNAPSHOT_DECODER = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
const TEMP_SUFFIX = ".tmp";

function checkId(documentId: string): string {
  // The id becomes a file name: only our own hex ids are accepted, so nothing can traverse.
  if (!DOCUMENT_ID.test(documentId)) throw new GroundkitError("INVALID_ARGUMENT", "Invalid document id for a snapshot.");
  return documentId;
}

export class SnapshotStore {
  constructor(readonly dir: string) {}

  private path(documentId: string): string {
    return join(this.dir, checkId(documentId));
  }

  /** Write content to a temp file (not yet visible); returns a commit function that renames it into place. */
  async stage(documentId: string, content: string): Promise<{ commit: () => Promise<void>; abort: () => Promise<void> }> {
    // The index dir exists (the collection is open in it); only the snapshots folder itself may be missing.
    // Not recursive: a recursive mkdir can spin forever on file systems like /proc (store/index-dir.ts).
    await mkdir(this.dir, { mode: 0o700 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== "EEXIST") throw err;
    });
    await this.refuseSymlink(this.dir);
    const final = this.path(documentId);
    const temp = `${final}.${process.pid}.${Date.now()}${TEMP_SUFFIX}`;
    // O_EXCL + O_NOFOLLOW: never write through a planted symlink.
    const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
    try {
      await handle.writeFile(content, "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    return {
      commit: async () => {
        await this.refuseSymlink(final, true);
        await rename(temp, final);
      },
      abort: () => rm(temp, { force: true }),
    };
  }

  /** Read a snapshot; undefined when it does not exist. Refuses a symlink. */
  async read(documentId: string): Promise<string | undefined> {
    let handle;
    try {
      // O_NONBLOCK: a FIFO planted in place of a snapshot must not block the read forever.
      handle = await open(this.path(documentId), constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return undefined;
      if (code === "ELOOP") throw new GroundkitError("PATH_ESCAPES_BASE", "The snapshot is a symlink; refused.");
      throw new GroundkitError("FILE_UNREADABLE", `The snapshot cannot be read (${code ?? "error"}).`);
    }
    try {
      if (!(await handle.stat()).isFile()) {
        throw new GroundkitError("FILE_UNREADABLE", "The snapshot is not a regular file.");
      }
      // Strict: a snapshot is the indexed text stored as UTF-8; bytes that do not decode
      // cannot be that text (a lossy decode could even turn corrupt bytes into a match).
      return SNAPSHOT_DECODER.decode(await handle.readFile());
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      if ((err as { code?: unknown }).code === "ERR_ENCODING_INVALID_ENCODED_DATA") {
        throw new GroundkitError("FILE_NOT_UTF8", "The snapshot is not valid UTF-8.");
      }
      throw new GroundkitError("FILE_UNREADABLE", `The snapshot cannot be read (${(err as NodeJS.ErrnoException).code ?? "error"}).`);
    } finally {
      await handle.close();
    }
  }

  async remove(documentId: string): Promise<void> {
    await rm(this.path(documentId), { force: true });
  }

  /** Remove temp files and snapshots whose document no longer exists. Returns how many were removed. */
  async sweep(isLiveDocument: (documentId: string) => Promise<boolean>): Promise<number> {
    const strays = await this.strays(isLiveDocument);
    for (const name of strays) await rm(join(this.dir, name), { force: true, recursive: false });
    return strays.length;
  }

  /** Names in the snapshots folder that {@link sweep} would remove (temp files, snapshots of no live document). */
  async strays(isLiveDocument: (documentId: string) => Promise<boolean>): Promise<string[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const out: string[] = [];
    for (const name of names) {
      if (name.endsWith(TEMP_SUFFIX) || !DOCUMENT_ID.test(name) || !(await isLiveDocument(name))) out.push(name);
    }
    return out;
  }

  private async refuseSymlink(path: string, allowMissing = false): Promise<void> {
    try {
      if ((await lstat(path)).isSymbolicLink()) {
        throw new GroundkitError("PATH_ESCAPES_BASE", "The snapshot location is a symlink; refused.");
      }
    } catch (err) {
      if (err instanceof GroundkitError) throw err;
      if (!(allowMissing && (err as NodeJS.ErrnoException).code === "ENOENT")) throw err;
    }
  }
}
