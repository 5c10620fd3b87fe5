/**
 * Watching one folder tree for changes: one non-recursive `fs.watch` (inotify
 * on Linux) per folder, added as folders appear and dropped as they go.
 * Node 20's `recursive: true` on Linux watches every *file* (2,021 inotify
 * watches and 0.55 s to start on 2,000 files in 20 folders, measured here) and
 * cannot skip `.git` or `node_modules`; this watches 21, and never enters a
 * folder the walk would not (hidden names, `node_modules`), the folders a
 * `git checkout` churns most.
 *
 * It reports paths, not verdicts: what changed is decided by the incremental
 * ingest the batch runs. The root may vanish (deleted, or renamed away by a
 * tool): the watcher then polls for it and starts over when it is back,
 * reporting the root itself so the next batch re-reads all of it.
 */
import { watch, type FSWatcher } from "node:fs";
import { readdir, stat } from "node:fs/promises";
import { join, sep } from "node:path";
import { GroundkitError } from "../core/errors.js";

export interface TreeWatcherOptions {
  /** Called with the absolute path of something that changed (a file, or a folder to re-read). */
  onChange: (path: string) => void;
  /** Called when the root disappears, and when it is back (`present`). */
  onRoot?: ((present: boolean) => void) | undefined;
  /** Whether a changed path is worth a batch (the caller's extension filter); folders always are. */
  relevant?: ((path: string) => boolean) | undefined;
  /** A folder that cannot be watched (the inotify limit reached, say); it is skipped. */
  onWatchError?: ((dir: string, err: NodeJS.ErrnoException) => void) | undefined;
  /** How often to look for a vanished root (default 250 ms). */
  pollMs?: number | undefined;
}

/** Names the folder walk (ingest/discover.ts) never enters or indexes; `.gitignore` changes what it selects. */
function skippedName(name: string): boolean {
  return (name.startsWith(".") && name !== ".gitignore") || name === "node_modules";
}

export class TreeWatcher {
  private readonly watchers = new Map<string, FSWatcher>();
  private rootIno: number | undefined;
  private poll: NodeJS.Timeout | undefined;
  private closed = false;
  /** Why the root could not be watched, if it could not. */
  private rootError: NodeJS.ErrnoException | undefined;

  constructor(
    readonly root: string,
    private readonly opts: TreeWatcherOptions,
  ) {}

  /**
   * Start watching (resolves once every existing folder is watched, or the root is being polled for).
   *
   * @throws GroundkitError WATCH_UNAVAILABLE when the root itself cannot be watched (no inotify instance
   *   or watch left): watching nothing while saying "watching" would miss every change
   */
  async start(): Promise<void> {
    const s = await stat(this.root).catch(() => undefined);
    if (!s?.isDirectory()) {
      this.opts.onRoot?.(false);
      this.waitForRoot();
      return;
    }
    this.rootIno = s.ino;
    await this.watchTree(this.root);
    if (!this.watchers.has(this.root) && this.rootError !== undefined) throw watchUnavailable(this.root, this.rootError);
  }

  /** Stop watching; no callback runs afterwards. */
  close(): void {
    this.closed = true;
    clearInterval(this.poll);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  /** Folders watched (for tests and the start-up log line). */
  get folders(): number {
    return this.watchers.size;
  }

  private async watchTree(dir: string): Promise<void> {
    if (this.closed || this.watchers.has(dir)) return;
    let w: FSWatcher;
    try {
      w = watch(dir, { persistent: true }, (_event, name) => this.onEvent(dir, name === null ? null : String(name)));
    } catch (err) {
      // Gone already: its parent's event covers it. Anything else (ENOSPC: out of inotify watches) is said.
      const e = err as NodeJS.ErrnoException;
      if (e.code === "ENOENT" || e.code === "ENOTDIR") return;
      if (dir === this.root) this.rootError = e;
      else this.opts.onWatchError?.(dir, e);
      return;
    }
    w.on("error", () => this.unwatch(dir));
    this.watchers.set(dir, w);
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.isDirectory() && !skippedName(e.name)) await this.watchTree(join(dir, e.name));
    }
  }

  private onEvent(dir: string, name: string | null): void {
    if (this.closed) return;
    if (name === null) {
      this.opts.onChange(dir);
      return;
    }
    if (name.split(sep).some(skippedName)) return;
    const path = join(dir, name);
    void this.settle(dir, path);
  }

  /** Find out what the event left behind: a new folder is watched, a gone one dropped, the root checked. */
  private async settle(dir: string, path: string): Promise<void> {
    if (dir === this.root && !(await this.rootStillThere())) return;
    const s = await stat(path).catch(() => undefined);
    if (this.closed) return;
    if (s?.isDirectory()) {
      await this.watchTree(path);
      this.opts.onChange(path);
      return;
    }
    if (!s && this.watchers.has(path)) {
      // A watched folder went: whatever it held is gone too.
      this.unwatchTree(path);
      this.opts.onChange(path);
      return;
    }
    // A file that came, changed or went; an editor's temp files (`4913`, `x.md~`, `x.md.tmp`) start no batch.
    if (this.opts.relevant?.(path) ?? true) this.opts.onChange(path);
  }

  /** False (and polling for it) when the root is gone or was replaced by another folder. */
  private async rootStillThere(): Promise<boolean> {
    const s = await stat(this.root).catch(() => undefined);
    if (this.closed) return false;
    if (s?.isDirectory() && s.ino === this.rootIno) return true;
    this.unwatchTree(this.root);
    if (s?.isDirectory()) {
      // Replaced in one step (moved aside, a new one moved in): start over on the new folder.
      this.rootIno = s.ino;
      await this.watchTree(this.root);
      this.opts.onChange(this.root);
      return false;
    }
    // Every entry deleted with the root reports here too: say it once.
    if (!this.poll) this.opts.onRoot?.(false);
    this.waitForRoot();
    return false;
  }

  private waitForRoot(): void {
    if (this.poll || this.closed) return;
    this.poll = setInterval(() => {
      void stat(this.root).then(
        async (s) => {
          if (!s.isDirectory() || this.closed || !this.poll) return;
          clearInterval(this.poll);
          this.poll = undefined;
          this.rootIno = s.ino;
          await this.watchTree(this.root);
          this.opts.onRoot?.(true);
          this.opts.onChange(this.root);
        },
        () => undefined,
      );
    }, this.opts.pollMs ?? 250);
  }

  private unwatch(dir: string): void {
    this.watchers.get(dir)?.close();
    this.watchers.delete(dir);
  }

  private unwatchTree(dir: string): void {
    const prefix = dir + sep;
    for (const d of [...this.watchers.keys()]) if (d === dir || d.startsWith(prefix)) this.unwatch(d);
  }
}

/**
 * The error for a folder the system would not watch, with the limit to raise. On Linux, EMFILE from
 * `fs.watch` means this user has no inotify instance left (`fs.inotify.max_user_instances`, 128 by
 * default; every watching process, editor and dev server takes one), ENOSPC no inotify watch left
 * (`fs.inotify.max_user_watches`).
 */
export function watchUnavailable(dir: string, err: NodeJS.ErrnoException): GroundkitError {
  const limits: Record<string, { what: string; hint: string }> = {
    EMFILE: {
      what: "no inotify instance is left for this user",
      hint: "Raise the limit (`sudo sysctl fs.inotify.max_user_instances=512`; persist it in /etc/sysctl.d/) or stop other watching processes of this user, then start again.",
    },
    ENOSPC: {
      what: "no inotify watch is left for this user",
      hint: "Raise the limit (`sudo sysctl fs.inotify.max_user_watches=524288`; persist it in /etc/sysctl.d/), then start again.",
    },
  };
  const known = err.code === undefined ? undefined : limits[err.code];
  return new GroundkitError(
    "WATCH_UNAVAILABLE",
    `Cannot watch ${dir}: ${known?.what ?? err.message} (${err.code ?? "error"}).`,
    undefined,
    known === undefined ? { cause: err } : { cause: err, hint: known.hint },
  );
}
