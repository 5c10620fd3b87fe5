// Copies non-TypeScript runtime assets (the web page, the PostgreSQL worker) next to the compiled code in dist/.
import { cpSync } from "node:fs";

if (process.argv[2] !== "--worker-only") {
  cpSync(new URL("../src/service/web", import.meta.url), new URL("../dist/service/web", import.meta.url), { recursive: true });
}
// The PostgreSQL store's worker thread is plain CommonJS, run as it is.
// `--worker-only DIR` copies just the worker beside DIR/store/postgres (the bench and fuzz build, .tools-build/src).
const workerOnly = process.argv[2] === "--worker-only" ? process.argv[3] : undefined;
cpSync(
  new URL("../src/store/postgres/pg-worker.cjs", import.meta.url),
  new URL(`../${workerOnly ?? "dist"}/store/postgres/pg-worker.cjs`, import.meta.url),
);
