/**
 * Obtain a `text` source's current content exactly as ingest did (same cap,
 * same decoding, same newline normalization); failures are unresolvable.
 */
import { GroundkitError } from "../core/errors.js";
import { readContainedFile } from "../source/contained-read.js";
import { decodeTextContent } from "../source/text-loader.js";
import { unresolvable } from "./resolution-error.js";

export async function readTextSource(realPath: string, label: string, maxBytes: number): Promise<string> {
  try {
    return decodeTextContent(await readContainedFile(realPath, maxBytes, label), label);
  } catch (err) {
    if (err instanceof GroundkitError) throw unresolvable(`the source cannot be read as text: ${err.message}`);
    throw err;
  }
}
