/**
 * `node --import test/support/module-log.mjs …`: append the URL of every ES module the process
 * loads to the file named by MODULE_LOG, one a line (cli-startup-imports.test.ts reads it).
 */
import { register } from "node:module";

register(
  "data:text/javascript," +
    encodeURIComponent(`
      import { appendFileSync } from "node:fs";
      export async function load(url, context, next) {
        appendFileSync(process.env.MODULE_LOG, url + "\\n");
        return next(url, context);
      }`),
);
