// Development only: lets a worker thread started from TypeScript source (the test suite runs
// src/ directly) load .ts modules on Node 20, which cannot strip types. The built library never
// uses it. Usage: new Worker(tsUrl, { execArgv: ["--import", <this file's URL>] }).
import { register } from "node:module";

register("./ts-source-hooks.mjs", import.meta.url);
