import type {
	Tool as AnthropicTool,
	ToolChoice as AnthropicToolChoice,
	ContentBlockParam,
	ImageBlockParam,
	MessageCreateParamsStreaming,
	MessageParam,
	TextBlockParam,
	ToolResultBlockParam,
} from "@anthropic-ai/sdk/resources/messages";
import { toolToJsonSchema } from "../tool-schema.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Model,
	ReasoningLevel,
	StreamOptions,
	TextContent,
	ToolChoice,
	ToolResultMessage,
} from "../types.js";
import { IMAGE_OMITTED_TEXT, normalizeTranscript } from "./transcript.js";

type ImageMediaType = ImageBlockParam extends { source: infer S }
	? S extends { media_type: infer M }
		? M
		: never
	: never;
const IMAGE_MEDIA_TYPES = new Set<string>(["image/jpeg", "image/png", "image/gif", "image/webp"]);
const EPHEMERAL_CACHE = { type: "ephemeral" } as const;
/** Extended-thinking budgets of the reasoning levels. */
export const THINKING_BUDGETS: Record<ReasoningLevel, number> = {
	minimal: 1024,
	low: 4096,
	medium: 10_240,
	high: 32_000,
};
/** Room left for the answer above a thinking budget derived from a level. */
const ANSWER_TOKENS = 4096;

/**
 * The Messages API request for a context. Consecutive tool results travel as `tool_result` blocks (with
 * their images and `is_error`) in one user message. The last tool definition, the system prompt and the
 * last user message carry cache breakpoints, so the stable prefix (tools, then system) and a growing
 * transcript are read from the prompt cache.
 */
export function toAnthropicRequest(
	model: Model,
	context: Context,
	options: StreamOptions,
): MessageCreateParamsStreaming {
	const adaptive = model.compat?.anthropicThinking === "adaptive";
	const thinking = adaptive ? undefined : thinkingSettings(model, options);
	const request: MessageCreateParamsStreaming = {
		model: model.id,
		max_tokens: thinking?.maxTokens ?? options.maxTokens ?? model.maxTokens,
		messages: toAnthropicMessages(model, context),
		stream: true,
	};
	if (context.systemPrompt) {
		request.system = [{ type: "text", text: context.systemPrompt, cache_control: EPHEMERAL_CACHE }];
	}
	if (context.tools?.length) {
		request.tools = context.tools.map((tool) => {
			const schema = toolToJsonSchema(tool, model);
			const declared: AnthropicTool = {
				name: tool.name,
				description: tool.description,
				input_schema: schema.parameters as AnthropicTool.InputSchema,
			};
			if (schema.strict) declared.strict = true;
			return declared;
		});
		const last = request.tools[request.tools.length - 1] as AnthropicTool;
		last.cache_control = EPHEMERAL_CACHE;
		const choice = toToolChoice(options.toolChoice, options.parallelToolCalls);
		if (choice) request.tool_choice = choice;
	}
	// No `temperature`: the Messages API deprecated it and the client no longer sends it.
	if (thinking) request.thinking = { type: "enabled", budget_tokens: thinking.budget };
	if (adaptive && (options.reasoning || options.thinking) && model.reasoning !== false) {
		// These models take an effort, not a budget (a budget is refused with a 400).
		request.thinking = { type: "adaptive" };
		request.output_config = { effort: options.reasoning ? ADAPTIVE_EFFORTS[options.reasoning] : "high" };
	}
	return request;
}

/** The effort an adaptive-thinking model gets for a reasoning level (the API has no "minimal"). */
const ADAPTIVE_EFFORTS: Record<ReasoningLevel, "low" | "medium" | "high"> = {
	minimal: "low",
	low: "low",
	medium: "medium",
	high: "high",
};

/**
 * The thinking budget and `max_tokens`: an explicit `thinking.budgetTokens` is sent as given; a
 * `reasoning` level picks a budget (kept below the model's output limit) and raises `max_tokens` so the
 * answer has room above it.
 */
function thinkingSettings(model: Model, options: StreamOptions): { budget: number; maxTokens: number } | undefined {
	const requested = options.maxTokens ?? model.maxTokens;
	if (options.thinking) return { budget: options.thinking.budgetTokens, maxTokens: requested };
	if (!options.reasoning || model.reasoning === false) return undefined;
	const budget = Math.min(THINKING_BUDGETS[options.reasoning], Math.max(1024, model.maxTokens - ANSWER_TOKENS));
	return { budget, maxTokens: Math.max(requested, Math.min(model.maxTokens, budget + ANSWER_TOKENS)) };
}

function toToolChoice(choice: ToolChoice | undefined, parallel: boolean | undefined): AnthropicToolChoice | undefined {
	if (choice === undefined && parallel === undefined) return undefined;
	const disable = parallel === false ? { disable_parallel_tool_use: true } : {};
	if (choice === "none") return { type: "none" };
	if (choice === "required") return { type: "any", ...disable };
	if (typeof choice === "object") return { type: "tool", name: choice.name, ...disable };
	return { type: "auto", ...disable };
}

function toAnthropicMessages(model: Model, context: Context): MessageParam[] {
	const messages: MessageParam[] = [];
	for (const message of normalizeTranscript(context.messages)) {
		if (message.role === "user") {
			const content =
				typeof message.content === "string"
					? textBlocks(message.content)
					: message.content.flatMap((block) => contentBlock(model, block));
			if (content.length) messages.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = assistantContent(message);
			if (content.length) messages.push({ role: "assistant", content });
		} else {
			const block = toolResultBlock(model, message);
			const previous = messages[messages.length - 1];
			if (previous?.role === "user" && Array.isArray(previous.content) && previous.content[0]?.type === "tool_result") {
				previous.content.push(block);
			} else {
				messages.push({ role: "user", content: [block] });
			}
		}
	}
	markLastUserMessageForCache(messages);
	return messages;
}

function assistantContent(message: AssistantMessage): ContentBlockParam[] {
	const content: ContentBlockParam[] = [];
	const fromAnthropic = message.api === "anthropic-messages";
	for (const block of message.content) {
		if (block.type === "text") content.push(...textBlocks(block.text));
		else if (block.type === "provider") {
			// Server-tool calls and results travel back unchanged, so the conversation replays.
			if (block.api === "anthropic-messages") content.push(block.data as unknown as ContentBlockParam);
		} else if (block.type === "toolCall") {
			content.push({ type: "tool_use", id: toolUseId(block.id), name: block.name, input: block.arguments });
		} else if (fromAnthropic && block.redacted && block.signature) {
			content.push({ type: "redacted_thinking", data: block.signature });
		} else if (fromAnthropic && block.signature) {
			content.push({ type: "thinking", thinking: block.thinking, signature: block.signature });
		} else if (block.thinking) {
			// Thinking without a signature (another provider's) cannot be verified; keep it as plain text.
			content.push(...textBlocks(block.thinking));
		}
	}
	return content;
}

function toolResultBlock(model: Model, message: ToolResultMessage): ToolResultBlockParam {
	const content = message.content.flatMap((block) => contentBlock(model, block));
	const result: ToolResultBlockParam = { type: "tool_result", tool_use_id: toolUseId(message.toolCallId) };
	if (content.length) result.content = content as NonNullable<ToolResultBlockParam["content"]>;
	if (message.isError) result.is_error = true;
	return result;
}

function contentBlock(model: Model, block: TextContent | ImageContent): (TextBlockParam | ImageBlockParam)[] {
	if (block.type === "text") return textBlocks(block.text);
	if (!model.input.includes("image") || !IMAGE_MEDIA_TYPES.has(block.mimeType)) {
		return textBlocks(
			model.input.includes("image") ? `(image omitted: unsupported type ${block.mimeType})` : IMAGE_OMITTED_TEXT,
		);
	}
	const mediaType = block.mimeType as ImageMediaType;
	return [{ type: "image", source: { type: "base64", media_type: mediaType, data: block.data } }];
}

/** The API rejects empty text blocks. */
function textBlocks(text: string): TextBlockParam[] {
	return text ? [{ type: "text", text }] : [];
}

/** Anthropic accepts tool-use ids of `[a-zA-Z0-9_-]` only; ids from other providers are made to fit. */
function toolUseId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "tool_call";
}

function markLastUserMessageForCache(messages: MessageParam[]): void {
	const last = [...messages].reverse().find((message) => message.role === "user");
	if (!last || typeof last.content === "string") return;
	const block = last.content[last.content.length - 1];
	if (block && (block.type === "text" || block.type === "image" || block.type === "tool_result")) {
		block.cache_control = EPHEMERAL_CACHE;
	}
}
