import { registerProvider } from "../registry.js";
import { lazyProvider } from "./lazy.js";

registerProvider(
	"openai-completions",
	lazyProvider(async () => (await import("./openai-completions.js")).streamOpenAICompletions, "openai"),
);
registerProvider(
	"openai-responses",
	lazyProvider(async () => (await import("./openai-responses.js")).streamOpenAIResponses, "openai"),
);
registerProvider(
	"anthropic-messages",
	lazyProvider(async () => (await import("./anthropic-messages.js")).streamAnthropicMessages, "@anthropic-ai/sdk"),
);
