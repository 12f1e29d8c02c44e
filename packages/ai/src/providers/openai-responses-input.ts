import type {
	CustomTool,
	FunctionTool,
	ResponseInputContent,
	ResponseInputItem,
	ResponseReasoningItem,
	ToolChoiceCustom,
	ToolChoiceFunction,
	ToolChoiceOptions,
} from "openai/resources/responses/responses";
import { freeformArgumentName, supportsFreeformTools, toolToJsonSchema } from "../tool-schema.js";
import type {
	AssistantMessage,
	Context,
	ImageContent,
	Model,
	TextContent,
	ToolChoice,
	ToolResultMessage,
	UserMessage,
} from "../types.js";
import { toolResultImageLabel, toolResultText } from "./openai-messages.js";
import { IMAGE_OMITTED_TEXT, normalizeTranscript } from "./transcript.js";

const API = "openai-responses";

/**
 * A reasoning item as the thinking block's `signature` keeps it: the summary and the encrypted content,
 * sent back unchanged (requests use `store: false`, so the server keeps nothing between turns).
 */
export type StoredReasoning = Pick<ResponseReasoningItem, "type" | "summary" | "encrypted_content">;

/**
 * The Responses API `input` for a context. Items carry no ids (nothing is stored server-side); reasoning
 * items of this api travel back with their encrypted content. Tool results are `function_call_output`
 * items with their text; their images follow in one user message after a run of results.
 */
export function toResponsesInput(model: Model, context: Context): ResponseInputItem[] {
	const freeform = freeformTools(model, context);
	const freeformCalls = new Set<string>();
	const items: ResponseInputItem[] = [];
	let toolImages: ResponseInputContent[] = [];
	const flushToolImages = () => {
		if (toolImages.length) items.push({ role: "user", content: toolImages });
		toolImages = [];
	};
	for (const message of normalizeTranscript(context.messages)) {
		if (message.role === "toolResult") {
			const type = freeformCalls.has(message.toolCallId) ? "custom_tool_call_output" : "function_call_output";
			items.push({ type, call_id: message.toolCallId, output: toolResultText(message) });
			toolImages.push(...resultImages(model, message));
			continue;
		}
		flushToolImages();
		if (message.role === "user") {
			const content = userContent(model, message);
			if (content.length) items.push({ role: "user", content });
		} else items.push(...assistantItems(message, freeform, freeformCalls));
	}
	flushToolImages();
	return items;
}

function assistantItems(
	message: AssistantMessage,
	freeform: ReadonlyMap<string, string>,
	freeformCalls: Set<string>,
): ResponseInputItem[] {
	const items: ResponseInputItem[] = [];
	for (const block of message.content) {
		if (block.type === "text") {
			if (block.text) items.push({ role: "assistant", content: block.text });
		} else if (block.type === "toolCall" && freeform.has(block.name)) {
			const value = block.arguments[freeform.get(block.name) as string];
			freeformCalls.add(block.id);
			items.push({
				type: "custom_tool_call",
				call_id: block.id,
				name: block.name,
				input: typeof value === "string" ? value : JSON.stringify(block.arguments),
			});
		} else if (block.type === "toolCall") {
			items.push({
				type: "function_call",
				call_id: block.id,
				name: block.name,
				arguments: JSON.stringify(block.arguments),
			});
		} else if (block.type === "thinking" && message.api === API && block.signature) {
			const reasoning = parseStoredReasoning(block.signature);
			if (reasoning) items.push(reasoning as ResponseReasoningItem);
		}
		// Thinking of other apis cannot be verified and is not sent; provider blocks belong to their api.
	}
	return items;
}

function parseStoredReasoning(signature: string): StoredReasoning | undefined {
	try {
		const value = JSON.parse(signature) as StoredReasoning;
		return value?.type === "reasoning" ? value : undefined;
	} catch {
		return undefined;
	}
}

/**
 * The tools of the context declared as freeform (custom) tools on this model, by name, each with the name
 * of its one string argument (see `freeformArgumentName`). Empty when the endpoint has no freeform tools.
 */
export function freeformTools(model: Model, context: Context): Map<string, string> {
	const tools = new Map<string, string>();
	if (!supportsFreeformTools(model)) return tools;
	for (const tool of context.tools ?? []) {
		const argument = freeformArgumentName(tool);
		if (argument !== undefined) tools.set(tool.name, argument);
	}
	return tools;
}

/**
 * The Responses API tools: function tools (`strict` is always sent: the API's default is strict), and a
 * `custom` tool with the grammar for each tool that asks for grammar-constrained sampling.
 */
export function toResponsesTools(model: Model, context: Context): (FunctionTool | CustomTool)[] | undefined {
	if (!context.tools?.length) return undefined;
	const freeform = freeformTools(model, context);
	return context.tools.map((tool): FunctionTool | CustomTool => {
		const sampling = tool.constrainedSampling;
		if (freeform.has(tool.name) && sampling && sampling.type === "grammar") {
			return {
				type: "custom",
				name: tool.name,
				description: tool.description,
				format: { type: "grammar", syntax: sampling.syntax, definition: sampling.definition },
			};
		}
		const schema = toolToJsonSchema(tool, model);
		return {
			type: "function",
			name: tool.name,
			description: tool.description,
			parameters: schema.parameters as Record<string, unknown>,
			strict: schema.strict,
		};
	});
}

export function toResponsesToolChoice(
	choice: ToolChoice,
	freeform: ReadonlyMap<string, string> = new Map(),
): ToolChoiceOptions | ToolChoiceFunction | ToolChoiceCustom {
	if (typeof choice === "string") return choice;
	return { type: freeform.has(choice.name) ? "custom" : "function", name: choice.name };
}

function userContent(model: Model, message: UserMessage): ResponseInputContent[] {
	if (typeof message.content === "string")
		return message.content ? [{ type: "input_text", text: message.content }] : [];
	return message.content.map((block) => inputContent(model, block));
}

function inputContent(model: Model, block: TextContent | ImageContent): ResponseInputContent {
	if (block.type === "text") return { type: "input_text", text: block.text };
	if (!model.input.includes("image")) return { type: "input_text", text: IMAGE_OMITTED_TEXT };
	return { type: "input_image", detail: "auto", image_url: `data:${block.mimeType};base64,${block.data}` };
}

function resultImages(model: Model, message: ToolResultMessage): ResponseInputContent[] {
	const images = message.content.filter((block): block is ImageContent => block.type === "image");
	if (images.length === 0) return [];
	const label = toolResultImageLabel(message, images.length);
	return [{ type: "input_text", text: label }, ...images.map((image) => inputContent(model, image))];
}
