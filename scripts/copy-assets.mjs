// Copies non-TypeScript runtime assets (the web page) next to the compiled code in dist/.
import { cpSync } from "node:fs";

cpSync(new URL("../src/service/web", import.meta.url), new URL("../dist/service/web", import.meta.url), { recursive: true });
