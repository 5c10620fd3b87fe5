// Copies non-TypeScript runtime assets (the web page, the PostgreSQL worker) next to the compiled code in dist/.
import { cpSync } from "node:fs";

cpSync(new URL("../src/service/web", import.meta.url), new URL("../dist/service/web", import.meta.url), { recursive: true });
// The PostgreSQL store's worker thread is plain CommonJS, run as it is.
cpSync(new URL("../src/store/postgres/pg-worker.cjs", import.meta.url), new URL("../dist/store/postgres/pg-worker.cjs", import.meta.url));
