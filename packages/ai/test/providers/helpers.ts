import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, beforeEach, expect } from "vitest";
import {
	type AssistantMessage,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	type Context,
	type Model,
	type StreamOptions,
	stream,
} from "../../src/index.js";
import { type RecordedLlmRequest, type ScriptedLlmServer, startScriptedLlmServer } from "../../src/testing/index.js";

/** A 1×1 transparent PNG, base64. */
export const PIXEL_PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** Every event of a stream, and its final message. */
export async function drain(
	events: AssistantMessageEventStream,
): Promise<{ events: AssistantMessageEvent[]; message: AssistantMessage }> {
	const seen: AssistantMessageEvent[] = [];
	for await (const event of events) seen.push(event);
	return { events: seen, message: await events.result() };
}

/** The deltas of one kind for one content block. */
export function deltasFor(
	events: AssistantMessageEvent[],
	type: AssistantMessageEvent["type"],
	contentIndex: number,
): string[] {
	return events.flatMap((event) =>
		event.type === type && "delta" in event && event.contentIndex === contentIndex ? [event.delta] : [],
	);
}

/** A URL on 127.0.0.1 where nothing listens (a port that was just free). */
export async function closedPortUrl(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const port = (server.address() as AddressInfo).port;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return `http://127.0.0.1:${port}`;
}

/** Request `index` (from 0) the server recorded; a missing one fails the test here rather than as a later undefined. */
export function recordedRequest(server: ScriptedLlmServer, index: number): RecordedLlmRequest {
	const recorded = server.requests[index];
	if (recorded === undefined) throw new Error(`request ${index} was not recorded (${server.requests.length} were)`);
	return recorded;
}

/** Reads a nested value of a recorded JSON body without `any`. */
export function at(value: unknown, ...path: (string | number)[]): unknown {
	let current = value;
	for (const key of path) current = (current as Record<string | number, unknown> | undefined)?.[key];
	return current;
}

/**
 * Starts a scripted LLM server before each test (closed after it) and gives the model that talks to it,
 * plus `request(context?, options?)`: one streamed request drained to its events and message.
 */
export function useScriptedProvider(makeModel: (server: ScriptedLlmServer) => Model, defaults: StreamOptions) {
	let server: ScriptedLlmServer | undefined;
	let model: Model | undefined;
	beforeEach(async () => {
		server = await startScriptedLlmServer();
		model = makeModel(server);
	});
	afterEach(async () => {
		await server?.close();
	});
	const scripted = {
		get server(): ScriptedLlmServer {
			if (!server) throw new Error("the scripted server starts in beforeEach");
			return server;
		},
		get model(): Model {
			if (!model) throw new Error("the model is made in beforeEach");
			return model;
		},
		request: (context: Context = HELLO, options: StreamOptions = {}) =>
			drain(stream(scripted.model, context, { ...defaults, ...options })),
	};
	return scripted;
}

/** A short system prompt and one user message. */
export const HELLO: Context = {
	systemPrompt: "Be brief.",
	messages: [{ role: "user", content: "Hello?", timestamp: 1 }],
};

/** The README's grammar: every started block gets its one `*_end` before the stream's one final event. */
export function expectBlocksClosed(events: AssistantMessageEvent[]): void {
	const open = new Set<number>();
	for (const [position, event] of events.entries()) {
		if (event.type.endsWith("_start") && "contentIndex" in event) open.add(event.contentIndex);
		if (event.type.endsWith("_end") && "contentIndex" in event) expect(open.delete(event.contentIndex)).toBe(true);
		if (event.type === "done" || event.type === "error") {
			expect({ openAtTheEnd: [...open], lastEvent: position }).toEqual({
				openAtTheEnd: [],
				lastEvent: events.length - 1,
			});
		}
	}
	expect(events.filter((event) => event.type === "done" || event.type === "error")).toHaveLength(1);
}
