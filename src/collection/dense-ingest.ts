/**
 * The one rule for whether an ingest embeds the chunks it writes, whichever surface runs it
 * (`grk ingest`, `grk update`, the watchers, the REST/MCP ingest tool, the library).
 */
import { recordedIdentity } from "../embed/binding.js";
import type { Store } from "../store/store.js";

/**
 * Embed when asked (`--dense`), and always into a collection that is already dense (it recorded an
 * embedding identity or holds vectors): a dense collection never gains chunks that dense search
 * cannot see. Asking for `dense: false` does not turn a dense collection back into a BM25-only one.
 */
export async function ingestEmbeds(store: Pick<Store, "getMeta" | "countVectors">, asked: boolean | undefined): Promise<boolean> {
  if (asked === true) return true;
  return (await recordedIdentity(store)) !== undefined || (await store.countVectors()) > 0;
}
