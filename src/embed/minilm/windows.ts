/**
 * Text → model windows with the packaged WordPiece tokenizer. A window is
 * `[CLS] + up to (maxLength - 2) word pieces + [SEP]`, which is what the
 * reference engine (and sentence-transformers) feed the model: truncation
 * cuts content, never the special tokens.
 */
import { Tokenizer } from "@huggingface/tokenizers";
import { GroundkitError } from "../../core/errors.js";

/** How a text longer than one window becomes one vector. */
export type WindowPolicy = "first" | "mean";

/** Tokenize with a loaded tokenizer; ids of the content only. */
export interface WordPieces {
  contentIds(text: string): number[];
  readonly cls: number;
  readonly sep: number;
}

/**
 * Load a `tokenizer.json` (BERT normalizer: clean text, CJK spacing,
 * lowercase, accent stripping as configured; BERT pre-tokenizer; WordPiece).
 *
 * @throws GroundkitError EMBEDDING_FAILED when it lacks [CLS]/[SEP]
 */
export function loadWordPieces(tokenizerJson: string): WordPieces {
  const tokenizer = new Tokenizer(JSON.parse(tokenizerJson) as object, {});
  const cls = tokenizer.token_to_id("[CLS]");
  const sep = tokenizer.token_to_id("[SEP]");
  if (cls === undefined || sep === undefined) {
    throw new GroundkitError("EMBEDDING_FAILED", "The packaged tokenizer.json has no [CLS]/[SEP] tokens; reinstall the model package.");
  }
  return {
    cls,
    sep,
    contentIds: (text) => tokenizer.encode(text, { add_special_tokens: false }).ids,
  };
}

/**
 * The windows (token id lists with [CLS]/[SEP]) a text is embedded from:
 * under "first", one window truncated at `maxLength`; under "mean",
 * consecutive non-overlapping windows, at most `maxWindows`.
 */
export function toWindows(pieces: WordPieces, text: string, maxLength: number, policy: WindowPolicy, maxWindows: number): number[][] {
  const ids = pieces.contentIds(text);
  const budget = maxLength - 2;
  const count = policy === "first" ? 1 : Math.max(1, Math.min(maxWindows, Math.ceil(ids.length / budget)));
  const out: number[][] = [];
  for (let w = 0; w < count; w++) out.push([pieces.cls, ...ids.slice(w * budget, (w + 1) * budget), pieces.sep]);
  return out;
}
