import type {
	ChatCompletionAssistantMessageParam,
	ChatCompletionContentPart,
	ChatCompletionFunctionTool,
	ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import { toolToJsonSchema } from "../tool-schema.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Model,
	TextContent,
	ToolResultMessage,
	UserMessage,
} from "../types.js";
import { IMAGE_OMITTED_TEXT, normalizeTranscript } from "./transcript.js";

/** The fields compatible servers stream reasoning in; the thinking block's `reasoningField` names which one. */
export const REASONING_FIELDS = ["reasoning_content", "reasoning"] as const;
export type ReasoningField = (typeof REASONING_FIELDS)[number];

/**
 * The chat-completions `messages` for a context. Chat-completions tool messages cannot hold images, so
 * a run of tool results keeps their text in the tool messages and sends their images in one user
 * message right after the run. Assistant messages of the current turn (after the last user message) from
 * this same model send their reasoning back in the field it streamed in, as DeepSeek's thinking mode
 * requires during tool-call loops.
 */
export function toOpenAIMessages(model: Model, context: Context): ChatCompletionMessageParam[] {
	const messages: ChatCompletionMessageParam[] = [];
	const transcript = normalizeTranscript(context.messages);
	const turnStart = transcript.findLastIndex((message) => message.role === "user");
	if (context.systemPrompt) messages.push({ role: "system", content: context.systemPrompt });
	let toolImages: ChatCompletionContentPart[] = [];
	const flushToolImages = () => {
		if (toolImages.length) messages.push({ role: "user", content: toolImages });
		toolImages = [];
	};

	for (const [position, message] of transcript.entries()) {
		if (message.role === "toolResult") {
			messages.push({ role: "tool", tool_call_id: message.toolCallId, content: toolResultText(message) });
			toolImages.push(...toolResultImages(model, message));
			continue;
		}
		flushToolImages();
		if (message.role === "user") {
			const converted = userContent(model, message);
			if (converted !== undefined) messages.push({ role: "user", content: converted });
			continue;
		}
		const assistant: ChatCompletionAssistantMessageParam = { role: "assistant" };
		const text = message.content
			.filter((block): block is TextContent => block.type === "text")
			.map((block) => block.text)
			.join("");
		const toolCalls = message.content.flatMap((block) =>
			block.type === "toolCall"
				? [
						{
							id: block.id,
							type: "function" as const,
							function: { name: block.name, arguments: JSON.stringify(block.arguments) },
						},
					]
				: [],
		);
		if (!text && toolCalls.length === 0) continue;
		assistant.content = text || null;
		if (toolCalls.length) assistant.tool_calls = toolCalls;
		if (position > turnStart) Object.assign(assistant, reasoningFields(model, message));
		messages.push(assistant);
	}
	flushToolImages();
	return messages;
}

/** `{ reasoning_content: "…" }` (or `reasoning`) for thinking this model streamed, else `{}`. */
function reasoningFields(model: Model, message: AssistantMessage): Partial<Record<ReasoningField, string>> {
	if (message.api !== model.api || message.provider !== model.provider || message.model !== model.id) return {};
	const fields: Partial<Record<ReasoningField, string>> = {};
	for (const block of message.content) {
		if (block.type !== "thinking" || !block.thinking) continue;
		const field = REASONING_FIELDS.find((name) => name === block.reasoningField);
		if (field) fields[field] = (fields[field] ?? "") + block.thinking;
	}
	return fields;
}

/** The chat-completions `tools` for a context (`undefined` when it declares none). */
export function toOpenAITools(model: Model, context: Context): ChatCompletionFunctionTool[] | undefined {
	if (!context.tools?.length) return undefined;
	return context.tools.map((tool) => {
		const schema = toolToJsonSchema(tool, model);
		const declared: ChatCompletionFunctionTool = {
			type: "function",
			function: { name: tool.name, description: tool.description, parameters: schema.parameters },
		};
		// Only sent when true: several compatible servers reject the field.
		if (schema.strict) declared.function.strict = true;
		return declared;
	});
}

function userContent(model: Model, message: UserMessage): string | ChatCompletionContentPart[] | undefined {
	if (typeof message.content === "string") return message.content || undefined;
	const parts = message.content.map((block) => contentPart(model, block));
	if (parts.length === 0) return undefined;
	const texts = parts.flatMap((part) => (part.type === "text" ? [part.text] : []));
	return texts.length === parts.length ? texts.join("\n") : parts;
}

function contentPart(model: Model, block: TextContent | ImageContent): ChatCompletionContentPart {
	if (block.type === "text") return { type: "text", text: block.text };
	if (!model.input.includes("image")) return { type: "text", text: IMAGE_OMITTED_TEXT };
	return { type: "image_url", image_url: { url: `data:${block.mimeType};base64,${block.data}` } };
}

/** The text of a tool result for APIs that take text only there (images follow in a user message). */
export function toolResultText(message: ToolResultMessage): string {
	const text = message.content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
	if (text) return text;
	return message.content.some((block) => block.type === "image") ? "(see the attached image)" : "(no output)";
}

function toolResultImages(model: Model, message: ToolResultMessage): ChatCompletionContentPart[] {
	const images = message.content.filter((block): block is ImageContent => block.type === "image");
	if (images.length === 0) return [];
	return [
		{ type: "text", text: toolResultImageLabel(message, images.length) },
		...images.map((image) => contentPart(model, image)),
	];
}

/** The line that introduces a tool result's images in the user message that carries them. */
export function toolResultImageLabel(message: ToolResultMessage, count: number): string {
	return `Image${count > 1 ? "s" : ""} returned by the ${message.toolName} tool call ${message.toolCallId}:`;
}
