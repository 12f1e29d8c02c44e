import { createAssistantMessage, failedAssistantMessage } from "./assistant-message.js";
import { type AssistantMessageEventStream, createAssistantMessageEventStream } from "./event-stream.js";
import { errorText } from "./gantry-error.js";
import { registerProvider } from "./registry.js";
import type { AssistantMessage, Context, Model, StopReason, StreamOptions, ToolCall, Usage } from "./types.js";
import { completeUsage } from "./usage.js";

/** One scripted model response. */
export type FauxTurn = {
	text?: string;
	thinking?: string;
	/** Ids default to `call_<n>`, counted per model across all turns. */
	toolCalls?: { id?: string; name: string; arguments: Record<string, unknown> }[];
	/** Default: `"toolUse"` when `toolCalls` is non-empty, else `"stop"`. */
	stopReason?: StopReason;
	/** Default: an estimate of 4 characters a token for input and output. */
	usage?: Partial<Usage>;
	errorMessage?: string;
};

export type FauxTurnSource = FauxTurn | ((context: Context) => FauxTurn | Promise<FauxTurn>);

export interface FauxModel extends Model {
	api: "faux";
	/** A deep copy of the context of each request, in order (aborted requests included). */
	readonly calls: Context[];
}

export type FauxModelOptions = { id?: string; input?: ("text" | "image")[]; delayMs?: number };

const FAUX_STATE = Symbol.for("gantry.faux.state");

type FauxState = { turns: FauxTurnSource[]; next: number; callCounter: number; delayMs: number };

/**
 * An offline, scripted model. Each request consumes the next turn and streams it as real deltas (text
 * and thinking in several chunks, tool-call arguments as partial JSON), honouring the abort signal.
 * When the turns run out the request ends with `stopReason: "error"` and `"No more faux turns"`.
 *
 * @example
 * const model = createFauxModel([{ toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] }, { text: "Done." }]);
 */
export function createFauxModel(turns: FauxTurnSource[], options: FauxModelOptions = {}): FauxModel {
	const state: FauxState = { turns: [...turns], next: 0, callCounter: 0, delayMs: options.delayMs ?? 0 };
	const model = {
		id: options.id ?? "faux-1",
		name: "Faux (scripted)",
		api: "faux" as const,
		provider: "faux",
		input: options.input ?? ["text", "image"],
		contextWindow: 200_000,
		maxTokens: 32_000,
		calls: [] as Context[],
		[FAUX_STATE]: state,
	};
	return model;
}

function stateOf(model: Model): FauxState | undefined {
	return (model as { [FAUX_STATE]?: FauxState })[FAUX_STATE];
}

/** The `faux` provider: plays the script of a model made by `createFauxModel`. */
export function streamFaux(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
	const events = createAssistantMessageEventStream();
	const state = stateOf(model);
	const calls = (model as Partial<FauxModel>).calls;
	calls?.push(copyContext(context));
	const signal = options?.signal;
	if (!state) {
		finishWithError(
			events,
			failedAssistantMessage(model, "error", "Not a faux model: create it with createFauxModel()"),
		);
		return events;
	}
	if (signal?.aborted) {
		finishWithError(events, failedAssistantMessage(model, "aborted", "Request was aborted"));
		return events;
	}
	const source = state.turns[state.next];
	if (source === undefined) {
		finishWithError(events, failedAssistantMessage(model, "error", "No more faux turns"));
		return events;
	}
	state.next++;
	void play(model, state, source, context, events, signal);
	return events;
}

async function play(
	model: Model,
	state: FauxState,
	source: FauxTurnSource,
	context: Context,
	events: AssistantMessageEventStream,
	signal: AbortSignal | undefined,
): Promise<void> {
	const message = createAssistantMessage(model);
	try {
		const turn = typeof source === "function" ? await source(context) : source;
		const aborted = () => signal?.aborted === true;
		const pause = () => sleep(state.delayMs, signal);
		events.push({ type: "start", partial: message });

		const emitBlock = async (kind: "text" | "thinking", value: string): Promise<boolean> => {
			const contentIndex = message.content.length;
			const block = kind === "text" ? { type: "text" as const, text: "" } : { type: "thinking" as const, thinking: "" };
			message.content.push(block);
			events.push({ type: `${kind}_start`, contentIndex, partial: message });
			for (const delta of chunk(value)) {
				await pause();
				if (aborted()) return false;
				if (block.type === "text") block.text += delta;
				else block.thinking += delta;
				events.push({ type: `${kind}_delta`, contentIndex, delta, partial: message });
			}
			events.push({ type: `${kind}_end`, contentIndex, content: value, partial: message });
			return true;
		};

		if (turn.thinking !== undefined && !(await emitBlock("thinking", turn.thinking)))
			return abort(model, message, events);
		if (turn.text !== undefined && !(await emitBlock("text", turn.text))) return abort(model, message, events);
		for (const call of turn.toolCalls ?? []) {
			const toolCall: ToolCall = {
				type: "toolCall",
				id: call.id ?? `call_${++state.callCounter}`,
				name: call.name,
				arguments: {},
			};
			const contentIndex = message.content.length;
			message.content.push(toolCall);
			events.push({ type: "toolcall_start", contentIndex, partial: message });
			for (const delta of chunk(JSON.stringify(call.arguments ?? {}))) {
				await pause();
				if (aborted()) return abort(model, message, events);
				events.push({ type: "toolcall_delta", contentIndex, delta, partial: message });
			}
			toolCall.arguments = structuredClone(call.arguments ?? {});
			events.push({ type: "toolcall_end", contentIndex, toolCall, partial: message });
		}
		await pause();
		if (aborted()) return abort(model, message, events);

		message.usage = completeUsage(turn.usage ?? estimateUsage(context, message));
		const stopReason = turn.stopReason ?? (turn.toolCalls?.length ? "toolUse" : "stop");
		message.stopReason = stopReason;
		if (stopReason === "error" || stopReason === "aborted") {
			message.errorMessage = turn.errorMessage ?? (stopReason === "error" ? "Faux error" : "Request was aborted");
			finishWithError(events, message);
			return;
		}
		events.push({ type: "done", reason: stopReason, message });
		events.end();
	} catch (error) {
		finishWithError(events, failedAssistantMessage(model, "error", errorText(error), message));
	}
}

function abort(model: Model, message: AssistantMessage, events: AssistantMessageEventStream): void {
	finishWithError(events, failedAssistantMessage(model, "aborted", "Request was aborted", message));
}

function finishWithError(events: AssistantMessageEventStream, message: AssistantMessage): void {
	events.push({ type: "error", reason: message.stopReason === "aborted" ? "aborted" : "error", error: message });
	events.end();
}

/** Splits text into a few word-aligned pieces so consumers see real incremental deltas. */
function chunk(value: string): string[] {
	if (value.length <= 12) return [value];
	const pieces: string[] = [];
	const target = Math.max(12, Math.ceil(value.length / 8));
	let start = 0;
	while (start < value.length) {
		let end = Math.min(value.length, start + target);
		const space = value.indexOf(" ", end);
		if (space !== -1 && space - end < 12) end = space + 1;
		pieces.push(value.slice(start, end));
		start = end;
	}
	return pieces;
}

function estimateUsage(context: Context, message: AssistantMessage): Partial<Usage> {
	const input = Math.ceil((JSON.stringify(context.messages).length + (context.systemPrompt?.length ?? 0)) / 4);
	const output = Math.ceil(JSON.stringify(message.content).length / 4);
	return { input, output };
}

function copyContext(context: Context): Context {
	const copy: Context = { messages: structuredClone(context.messages) };
	if (context.systemPrompt !== undefined) copy.systemPrompt = context.systemPrompt;
	if (context.tools) {
		copy.tools = context.tools.map((tool) => {
			const declared: NonNullable<Context["tools"]>[number] = {
				name: tool.name,
				description: tool.description,
				parameters: structuredClone(tool.parameters),
			};
			if (tool.constrainedSampling !== undefined) declared.constrainedSampling = tool.constrainedSampling;
			return declared;
		});
	}
	return copy;
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	if (ms <= 0 || signal?.aborted) return Promise.resolve();
	return new Promise((resolve) => {
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}

registerProvider("faux", streamFaux);
