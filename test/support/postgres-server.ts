/**
 * A throwaway PostgreSQL server for a test file: Debian's `postgresql`
 * package (scripts/ensure-test-deps.mjs installs it), a fresh cluster made by
 * initdb in a temp dir, listening on 127.0.0.1 at a free port, stopped and
 * deleted afterwards. PostgreSQL refuses to run as root, so as root the
 * cluster belongs to the `postgres` user the package creates and runs under
 * `runuser -u postgres --`. No skipping: if the server cannot start, the
 * test file fails with the reason.
 *
 * @example
 *   const pg = await startPostgres();
 *   process.env.GROUNDKIT_PG_URL = pg.url;
 *   ...
 *   await pg.stop();
 */
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { atExit } from "./at-exit.js";

export interface TestPostgres {
  /** postgres://postgres@127.0.0.1:PORT/postgres (trust auth on loopback). */
  url: string;
  port: number;
  dataDir: string;
  stop(): Promise<void>;
}

/** The newest installed server's bin directory. */
function serverBinDir(): string {
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "initdb"))) : [];
  versions.sort((a, b) => Number(b) - Number(a));
  if (versions.length === 0) {
    throw new Error(
      "No PostgreSQL server is installed (looked in /usr/lib/postgresql/*/bin). `npm test` installs it " +
        "(scripts/ensure-test-deps.mjs); by hand: apt-get install -y postgresql",
    );
  }
  return join(root, versions[0]!, "bin");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

function uidOf(user: string): { uid: number; gid: number } {
  const uid = Number(execFileSync("id", ["-u", user], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", user], { encoding: "utf8" }).trim());
  return { uid, gid };
}

/** A temp dir the server's user owns, and a runner of the server's binaries as that user. */
function serverWorkspace(prefix: string): { dataDir: string; run: (cmd: string, args: string[]) => void } {
  const bin = serverBinDir();
  const isRoot = process.getuid?.() === 0;
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dataDir, 0o700);
  if (isRoot) {
    const { uid, gid } = uidOf("postgres");
    chownSync(dataDir, uid, gid);
  }
  const run = (cmd: string, args: string[]): void => {
    const [file, argv] = isRoot ? ["runuser", ["-u", "postgres", "--", join(bin, cmd), ...args]] : [join(bin, cmd), args];
    execFileSync(file, argv, { stdio: ["ignore", "pipe", "pipe"], cwd: tmpdir() });
  };
  return { dataDir, run };
}

/** How a test server differs from a user's: tests skip fsync (a throwaway cluster), a benchmark keeps it. */
export interface ServerOptions {
  /** fsync on, as PostgreSQL ships (and synchronous_commit on, its default): what a user's server does on commit. */
  durable?: boolean;
}

/** Start the cluster in `cluster` on a free port (a port found free may be taken before the server binds it: try a few). */
async function startOnFreePort(run: (cmd: string, args: string[]) => void, dataDir: string, cluster: string, opts: ServerOptions = {}): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const port = await freePort();
    try {
      run("pg_ctl", [
        "-D",
        cluster,
        "-l",
        join(dataDir, "server.log"),
        "-w",
        "-t",
        "60",
        "-o",
        `-p ${port} -c listen_addresses=127.0.0.1 -k ${dataDir}${opts.durable ? "" : " -c fsync=off"} -c max_connections=200`,
        "start",
      ]);
      return port;
    } catch (err) {
      if (attempt >= 2) throw err;
    }
  }
}

/** The handle of a started cluster: stopping it deletes it. */
function running(run: (cmd: string, args: string[]) => void, dataDir: string, cluster: string, port: number): TestPostgres {
  // Once: a test that stops a server (a replica going down) leaves afterAll's stop nothing to do.
  // pg_ctl leaves the server running on its own: a process ending without stopping it stops it at exit.
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    forget();
    try {
      run("pg_ctl", ["-D", cluster, "-m", "immediate", "-w", "stop"]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  };
  const forget = atExit(stop);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop: async () => stop(),
  };
}

/**
 * A streaming replica of `primary`: `pg_basebackup -R` (which writes the
 * standby.signal and primary_conninfo) into a new temp dir, started on a free
 * port as a hot standby. Its data is `primary`'s at the backup: a copy of the
 * whole cluster (the bench's replica phase copies its 100,000-chunk database).
 */
export async function startReplica(primary: TestPostgres): Promise<TestPostgres> {
  const { dataDir, run } = serverWorkspace("grk-pg-replica-");
  const cluster = join(dataDir, "data");
  try {
    // A fast checkpoint: the default spread one paces its writes over most of checkpoint_timeout (~4.5 min) after a big ingest.
    run("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primary.port), "-U", "postgres", "-D", cluster, "-R", "-X", "stream", "--no-sync", "--checkpoint=fast"]);
    const port = await startOnFreePort(run, dataDir, cluster);
    return running(run, dataDir, cluster, port);
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`Could not start a test PostgreSQL replica: ${e.stderr?.toString().trim() || e.message}`, { cause: err });
  }
}

export async function startPostgres(opts: ServerOptions = {}): Promise<TestPostgres> {
  const { dataDir, run } = serverWorkspace("grk-pg-");
  const cluster = join(dataDir, "data");
  try {
    run("initdb", ["-D", cluster, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--locale=C", "--no-sync"]);
    const port = await startOnFreePort(run, dataDir, cluster, opts);
    return running(run, dataDir, cluster, port);
  } catch (err) {
    const e = err as { stderr?: Buffer; message: string };
    rmSync(dataDir, { recursive: true, force: true });
    throw new Error(`Could not start a test PostgreSQL server: ${e.stderr?.toString().trim() || e.message}`, { cause: err });
  }
}
