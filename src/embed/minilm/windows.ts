/**
 * Text → model windows with the packaged WordPiece tokenizer. A window is
 * `[CLS] + up to (maxLength - 2) word pieces + [SEP]`, which is what the
 * reference engine (and sentence-transformers) feed the model: truncation
 * cuts content, never the special tokens.
 */
import { Tokenizer } from "@huggingface/tokenizers";
import { GroundkitError } from "../../core/errors.js";

/**
 * How a text longer than one window is embedded: "first" and "mean" give it one
 * vector (its first window; the mean of its windows), "max" one vector per
 * overlapping window, stored side by side so a chunk scores by its best window
 * (docs/decisions/0032-max-over-windows.md).
 */
export type WindowPolicy = "first" | "mean" | "max";

/** Under "max", consecutive windows share this many word pieces, so a sentence cut at one window's end is whole in the next. */
export const WINDOW_OVERLAP = 32;

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
 * consecutive non-overlapping windows, at most `maxWindows`; under "max",
 * windows overlapping by {@link WINDOW_OVERLAP} word pieces, at most
 * `maxWindows` (what lies beyond the last is not embedded). The first window
 * is the same under every policy.
 */
export function toWindows(pieces: WordPieces, text: string, maxLength: number, policy: WindowPolicy, maxWindows: number): number[][] {
  const ids = pieces.contentIds(text);
  const budget = maxLength - 2;
  const stride = policy === "max" ? Math.max(1, budget - WINDOW_OVERLAP) : budget;
  // Windows until one reaches the end of the text: a text of `budget` pieces or fewer is one window under every policy.
  const needed = ids.length <= budget ? 1 : 1 + Math.ceil((ids.length - budget) / stride);
  const count = policy === "first" ? 1 : Math.min(maxWindows, needed);
  const out: number[][] = [];
  for (let w = 0; w < count; w++) out.push([pieces.cls, ...ids.slice(w * stride, w * stride + budget), pieces.sep]);
  return out;
}
