import { resolve } from "node:path";
import { PassThrough } from "node:stream";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { getDefaultEnvironment, StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { McpServerConfig } from "../config/types.js";
import { LineBuffer } from "./line-buffer.js";

/**
 * The largest single message a stdio server may send (the SDK's default is 10 MiB, past which it closes
 * the connection). Results this large are cut before the model sees them.
 */
export const MAX_STDIO_MESSAGE_BYTES = 128 * 1024 * 1024;

/** How much of a server's stderr is kept for its `failed` status. */
const STDERR_TAIL_CHARS = 2000;

/** The end of a stream's text, bounded. */
export class TextTail {
	#text = "";

	append(chunk: string): void {
		this.#text = (this.#text + chunk).slice(-STDERR_TAIL_CHARS);
	}

	get text(): string {
		return this.#text.trim();
	}
}

/** The command line that runs a stdio server inside the session's OS sandbox (see `McpExtensionOptions`). */
export type McpSandboxCommand = (
	command: string,
	args: readonly string[],
) => Promise<{ command: string; args: string[]; env: Record<string, string>; release(): void }>;

/**
 * A stdio transport for `config`, its stderr collected into `stderr`. A server with `"sandbox": true` is
 * started through `sandboxCommand`; without one it is refused (the error says why).
 */
export async function createStdioTransport(
	config: Extract<McpServerConfig, { command: string }>,
	cwd: string,
	stderr: TextTail,
	sandboxCommand?: McpSandboxCommand,
): Promise<Transport> {
	const args = config.args ?? [];
	if (config.sandbox === true && sandboxCommand === undefined) {
		throw new Error(
			'"sandbox": true asks for the OS sandbox, and this session has none: turn it on (sandbox.enabled, --sandbox) or remove "sandbox" from the server.',
		);
	}
	const sandboxed = config.sandbox === true && sandboxCommand ? await sandboxCommand(config.command, args) : undefined;
	const transport = new StdioClientTransport({
		command: sandboxed?.command ?? config.command,
		args: sandboxed?.args ?? args,
		env: { ...getDefaultEnvironment(), ...config.env, ...sandboxed?.env },
		cwd: resolve(cwd, config.cwd ?? "."),
		stderr: "pipe",
	});
	// The SDK's buffer copies everything read so far on every chunk (quadratic in a message's size).
	(transport as unknown as { _readBuffer: LineBuffer })._readBuffer = new LineBuffer(MAX_STDIO_MESSAGE_BYTES);
	if (sandboxed) {
		const previous = transport.onclose;
		transport.onclose = () => {
			sandboxed.release();
			previous?.();
		};
	}
	const stream = transport.stderr;
	if (stream instanceof PassThrough) {
		stream.setEncoding("utf8");
		stream.on("data", (chunk: string) => stderr.append(chunk));
	}
	return transport;
}

/** The two HTTP transports to try in order: Streamable HTTP, then (older servers) HTTP+SSE. */
export function createHttpTransports(config: Extract<McpServerConfig, { type: "http" }>): (() => Transport)[] {
	const url = new URL(config.url);
	const requestInit: RequestInit = config.headers === undefined ? {} : { headers: config.headers };
	return [
		() => new StreamableHTTPClientTransport(url, { requestInit }),
		() => new SSEClientTransport(url, { requestInit }),
	];
}

/** Whether `config` starts a process (as opposed to reaching a URL). */
export function isStdioConfig(config: McpServerConfig): config is Extract<McpServerConfig, { command: string }> {
	return "command" in config && typeof config.command === "string";
}
