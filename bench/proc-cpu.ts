/**
 * CPU seconds spent by process trees, read from /proc (Linux): what a served
 * request costs the groundkit processes and the PostgreSQL processes, which
 * a shared machine's wall-clock latencies cannot show. A tree's time is its
 * root's own and reaped children's time (utime, stime, cutime, cstime) plus
 * the live descendants' own time, so a backend that exits between two
 * readings is still counted (its parent reaps it).
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux build in use). */
const TICKS = 100;

interface Stat {
  ppid: number;
  own: number;
  reaped: number;
}

function statOf(pid: number): Stat | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
  const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
  // f[0] is field 3 (state): ppid is field 4, utime 14, stime 15, cutime 16, cstime 17.
  return { ppid: Number(f[1]), own: Number(f[11]) + Number(f[12]), reaped: Number(f[13]) + Number(f[14]) };
}

/** Every live process's parent. */
function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    const s = statOf(Number(name));
    if (s) out.set(Number(name), s.ppid);
  }
  return out;
}

/** CPU seconds of the trees rooted at `roots` so far. */
export function treeCpuSeconds(roots: readonly number[]): number {
  const ppids = parents();
  let ticks = 0;
  for (const root of roots) {
    const s = statOf(root);
    if (!s) continue;
    ticks += s.own + s.reaped;
    const stack = [root];
    while (stack.length > 0) {
      const p = stack.pop()!;
      for (const [pid, ppid] of ppids) {
        if (ppid !== p) continue;
        const c = statOf(pid);
        if (c) ticks += c.own;
        stack.push(pid);
      }
    }
  }
  return ticks / TICKS;
}

/** The postmaster of the cluster under `dataDir` (test/support/postgres-server.ts puts it in a folder below). */
export function postmasterPid(dataDir: string): number {
  for (const name of readdirSync(dataDir)) {
    const file = join(dataDir, name, "postmaster.pid");
    if (existsSync(file)) return Number(readFileSync(file, "utf8").split("\n")[0]);
  }
  throw new Error(`No postmaster.pid under ${dataDir}.`);
}
