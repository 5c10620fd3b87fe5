/** Turning a chat configuration into its provider; providers are imported on demand. */
import { parseChatConfig, type ChatConfig } from "./chat-config.js";
import type { ChatProvider, ChatTestHooks } from "./chat-provider.js";

/**
 * Create the provider a configuration describes.
 *
 * @throws GroundkitError INVALID_CONFIG for an invalid configuration or an unset api_key_env
 * @example
 *   const chat = await createChatProvider({ provider: "openai", base_url: "https://api.openai.com/v1",
 *     model: "gpt-4o-mini", api_key_env: "OPENAI_API_KEY" });
 *   const { text } = await chat.complete([{ role: "user", content: "Say hi." }]);
 */
export async function createChatProvider(config: ChatConfig, hooks: ChatTestHooks = {}): Promise<ChatProvider> {
  const c = parseChatConfig(config);
  switch (c.provider) {
    case "openai": {
      const { createOpenAIChat } = await import("./openai-chat.js");
      return createOpenAIChat(c, hooks);
    }
    case "ollama": {
      const { createOllamaChat } = await import("./ollama-chat.js");
      return createOllamaChat(c, hooks);
    }
  }
}

