import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { anthropicErrorBody, anthropicStreamFrames } from "./anthropic-wire.js";
import { openaiErrorBody, openaiStreamFrames } from "./openai-wire.js";
import { responsesStreamFrames } from "./responses-wire.js";
import {
	isHttpError,
	isNoAnswer,
	isRawReply,
	type RecordedLlmRequest,
	type ScriptedHttpError,
	type ScriptedReply,
	type ScriptedResponse,
	type ScriptedResponseSource,
} from "./scripted-response.js";

/** A running scripted server. */
export interface ScriptedLlmServer {
	/** `http://127.0.0.1:<port>`. */
	readonly url: string;
	/** Base URL for OpenAI clients and `openai-completions` models: `<url>/v1`. */
	readonly openaiBaseUrl: string;
	/** Base URL for `openai-responses` models: `<url>/v1` (the same as {@link openaiBaseUrl}). */
	readonly responsesBaseUrl: string;
	/** Base URL for Anthropic clients and `anthropic-messages` models: `<url>` (the client adds `/v1`). */
	readonly anthropicBaseUrl: string;
	/** Every request answered so far, in order (HTTP error answers included). */
	readonly requests: RecordedLlmRequest[];
	/** Appends responses to the script. */
	enqueue(...responses: ScriptedResponseSource[]): void;
	/** How many scripted responses are left. */
	remaining(): number;
	/** Stops the server, cutting open (e.g. stalled) streams. Resolves when it is closed; never rejects. */
	close(): Promise<void>;
}

/** Options of {@link startScriptedLlmServer}. */
export type ScriptedLlmServerOptions = {
	/** Port to listen on. Default: 0 (a free port chosen by the system). */
	port?: number;
};

/**
 * Starts an HTTP server on 127.0.0.1 that plays scripted model responses in the real streaming wire
 * formats, so the official OpenAI and Anthropic clients (and Gantry's providers) can be tested offline:
 * - `POST …/chat/completions`: OpenAI chat-completions SSE (`data: {…}`, `data: [DONE]`);
 * - `POST …/responses`: OpenAI Responses API SSE (`event: response.created` … `response.completed`);
 * - `POST …/messages`: Anthropic Messages SSE (`event: message_start` … `event: message_stop`).
 *
 * Each request consumes the next response of the script (a reply, an HTTP error, or a function of the
 * recorded request) and is recorded in `requests`. When the script runs out, the server answers
 * HTTP 500 with the message "scripted server: no more responses". Unknown paths get a 404. Independent
 * of any test framework.
 *
 * @example
 * const server = await startScriptedLlmServer([
 *   { toolCalls: [{ name: "read", arguments: { path: "a.txt" } }] },
 *   { text: "Done." },
 *   { status: 429, message: "Rate limit reached" },
 * ]);
 * const model = createOpenAICompatibleModel({ baseUrl: server.openaiBaseUrl, id: "test-model" });
 * // … run requests, then inspect server.requests[0].body …
 * await server.close();
 */
export async function startScriptedLlmServer(
	responses: ScriptedResponseSource[] = [],
	options: ScriptedLlmServerOptions = {},
): Promise<ScriptedLlmServer> {
	const script = [...responses];
	const requests: RecordedLlmRequest[] = [];
	let callCounter = 0;
	let signatureCounter = 0;
	const counters = {
		openaiCallId: () => `call_${++callCounter}`,
		anthropicCallId: () => `toolu_${++callCounter}`,
		signature: () => `sig-${++signatureCounter}`,
	};

	const server = createServer((request, response) => {
		handle(request, response).catch((error: unknown) => {
			if (!response.headersSent) sendJson(response, 500, { error: { message: `scripted server: ${String(error)}` } });
			else response.destroy();
		});
	});

	async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
		const path = new URL(request.url ?? "/", "http://localhost").pathname;
		const format = formatOf(path);
		if (!format || request.method !== "POST") {
			sendJson(response, 404, { error: { message: `scripted server: no route for ${request.method} ${path}` } });
			return;
		}
		const text = await readBody(request);
		let body: Record<string, unknown>;
		try {
			body = JSON.parse(text) as Record<string, unknown>;
		} catch {
			sendJson(response, 400, { error: { message: "scripted server: the request body is not JSON" } });
			return;
		}
		const recorded: RecordedLlmRequest = { format, method: request.method, path, headers: flatHeaders(request), body };
		requests.push(recorded);

		const source = script.shift();
		const scripted: ScriptedResponse =
			source === undefined
				? { status: 500, message: "scripted server: no more responses" }
				: typeof source === "function"
					? await source(recorded)
					: source;
		if (isHttpError(scripted)) {
			sendError(response, format, scripted);
			return;
		}
		if (isNoAnswer(scripted)) return; // The connection stays open, unanswered, until the client or close() cuts it.
		if (isRawReply(scripted)) {
			response.writeHead(200, { "content-type": scripted.contentType ?? "text/event-stream" });
			if (scripted.stallAfterBytes === undefined) response.end(scripted.raw);
			else response.write(Buffer.from(scripted.raw).subarray(0, scripted.stallAfterBytes));
			return;
		}
		const frames =
			format === "openai"
				? openaiStreamFrames(scripted, recorded, counters.openaiCallId)
				: format === "responses"
					? responsesStreamFrames(scripted, recorded, counters.openaiCallId, counters.signature)
					: anthropicStreamFrames(scripted, recorded, counters.anthropicCallId, counters.signature);
		await streamFrames(response, frames, scripted);
	}

	await new Promise<void>((resolve, reject) => {
		server.once("error", reject);
		server.listen(options.port ?? 0, "127.0.0.1", () => {
			server.off("error", reject);
			resolve();
		});
	});
	const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
	let closing: Promise<void> | undefined;

	return {
		url,
		openaiBaseUrl: `${url}/v1`,
		responsesBaseUrl: `${url}/v1`,
		anthropicBaseUrl: url,
		requests,
		enqueue: (...more) => {
			script.push(...more);
		},
		remaining: () => script.length,
		close: () => {
			closing ??= new Promise<void>((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			});
			return closing;
		},
	};
}

async function streamFrames(response: ServerResponse, frames: string[], reply: ScriptedReply): Promise<void> {
	response.writeHead(200, {
		"content-type": "text/event-stream",
		"cache-control": "no-cache",
		connection: "keep-alive",
	});
	let clientGone = false;
	response.on("close", () => {
		clientGone = true;
	});
	const limit = reply.stallAfterEvents ?? frames.length;
	for (const [index, frame] of frames.entries()) {
		if (clientGone) return;
		if (index >= limit) return; // Stalled: the connection stays open until the client or close() cuts it.
		if (index > 0 && reply.delayMs) await sleep(reply.delayMs);
		response.write(frame);
	}
	response.end();
}

function formatOf(path: string): RecordedLlmRequest["format"] | undefined {
	if (path.endsWith("/chat/completions")) return "openai";
	if (path.endsWith("/responses")) return "responses";
	if (path.endsWith("/messages")) return "anthropic";
	return undefined;
}

function sendError(response: ServerResponse, format: RecordedLlmRequest["format"], error: ScriptedHttpError): void {
	const body = format === "anthropic" ? anthropicErrorBody(error) : openaiErrorBody(error);
	sendJson(response, error.status, body, error.headers);
}

function sendJson(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
	const text = JSON.stringify(body);
	response.writeHead(status, {
		"content-type": "application/json",
		"content-length": Buffer.byteLength(text),
		...headers,
	});
	response.end(text);
}

function readBody(request: IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		request.on("data", (chunk: Buffer) => chunks.push(chunk));
		request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
		request.on("error", reject);
	});
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
	const headers: Record<string, string> = {};
	for (const [name, value] of Object.entries(request.headers)) {
		if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
	}
	return headers;
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
