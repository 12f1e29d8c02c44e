import { errorText, withoutUndefined } from "@gantry/ai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
	ErrorCode,
	McpError,
	type Tool as McpTool,
	ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { DEFAULT_MCP_START_TIMEOUT_MS, DEFAULT_MCP_TIMEOUT_MS, type McpServerSettings } from "../config/types.js";
import { GantryMcpError } from "../errors.js";
import { PACKAGE_NAME, PACKAGE_VERSION } from "../package-info.js";
import { LinearSchemaValidator } from "./linear-patterns.js";
import type { McpCallResult } from "./result-mapping.js";
import type { McpServerStatus } from "./status.js";
import {
	createHttpTransports,
	createStdioTransport,
	isStdioConfig,
	type McpSandboxCommand,
	TextTail,
} from "./transports.js";

export type { McpTool };

/** Options of `new McpServerConnection(...)`. */
export interface McpServerConnectionOptions {
	/** Folder a stdio server's relative `cwd` is resolved against, and its default working folder. */
	cwd: string;
	/** Told about every status change. A throwing listener is ignored. */
	onStatus?(status: McpServerStatus): void;
	/** Told when the server's tool list changed (after connecting and after `tools/list_changed`). */
	onToolsChanged?(tools: readonly McpTool[]): void;
	/** Starts a stdio server that asks for `"sandbox": true` inside the session's OS sandbox. */
	sandboxCommand?: McpSandboxCommand;
}

/** Options of one call. */
export interface McpCallOptions {
	/** Aborting sends `notifications/cancelled` to the server and rejects. */
	signal?: AbortSignal;
	/** Receives the server's progress notifications (each also restarts the timeout). */
	onProgress?(progress: { progress: number; total?: number; message?: string }): void;
}

/**
 * One MCP server: started in the background by `start()`, its tools listed and kept current through
 * `tools/list_changed`, its calls bounded by a timeout that progress restarts. A server that cannot
 * start, exits or breaks the protocol becomes `failed` with the tail of its stderr. `close()` ends the
 * session and the process (stdin closed, then SIGTERM, then SIGKILL).
 */
export class McpServerConnection {
	readonly name: string;
	readonly settings: McpServerSettings;
	readonly #options: McpServerConnectionOptions;
	readonly #stderr = new TextTail();
	#status: McpServerStatus = { state: "connecting" };
	#client: Client | undefined;
	#tools: McpTool[] = [];
	#started: Promise<void> | undefined;
	#closing = false;
	#listing: Promise<void> = Promise.resolve();
	#lastProtocolError: string | undefined;
	#pid: number | undefined;
	#startedAt: number | undefined;

	constructor(name: string, settings: McpServerSettings, options: McpServerConnectionOptions) {
		this.name = name;
		this.settings = settings;
		this.#options = options;
		if (settings.disabled === true) this.#status = { state: "closed" };
	}

	get status(): McpServerStatus {
		return this.#status;
	}

	/** The server's tools as it lists them (empty until ready). */
	get tools(): readonly McpTool[] {
		return this.#tools;
	}

	/** The server's `instructions` from its initialize answer, if any. */
	get instructions(): string | undefined {
		return this.#client?.getInstructions();
	}

	/** The name and version the server reported. */
	get serverInfo(): { name: string; version: string; title?: string } | undefined {
		const info = this.#client?.getServerVersion();
		return info && withoutUndefined({ name: info.name, version: info.version, title: info.title });
	}

	/** The process id of a stdio server while it runs. */
	get pid(): number | undefined {
		return this.#pid;
	}

	get timeoutMs(): number {
		return this.settings.timeoutMs ?? DEFAULT_MCP_TIMEOUT_MS;
	}

	/** How long a session waits for the server while it starts (`startTimeoutMs`, default 10 s). */
	get startTimeoutMs(): number {
		return this.settings.startTimeoutMs ?? DEFAULT_MCP_START_TIMEOUT_MS;
	}

	/** Connects and lists the tools. Never rejects: failure is the `failed` status. Idempotent. */
	start(): Promise<void> {
		if (this.settings.disabled === true) return Promise.resolve();
		this.#startedAt ??= Date.now();
		this.#started ??= this.#connect();
		return this.#started;
	}

	/**
	 * Waits while the server is still connecting, but never past `startTimeoutMs` after `start()` (so only
	 * the first requests of a session wait, and a server that hangs delays them once), nor past `signal`.
	 * Resolves with the status at that moment; a server not started yet is not waited for.
	 */
	async startWait(signal?: AbortSignal): Promise<McpServerStatus> {
		if (this.#status.state !== "connecting" || this.#startedAt === undefined || signal?.aborted) return this.#status;
		const left = this.#startedAt + this.startTimeoutMs - Date.now();
		if (left <= 0) return this.#status;
		let timer: NodeJS.Timeout | undefined;
		let onAbort: (() => void) | undefined;
		const stop = new Promise<void>((resolve) => {
			timer = setTimeout(resolve, left);
			onAbort = resolve;
			signal?.addEventListener("abort", onAbort, { once: true });
		});
		await Promise.race([this.#started, stop]);
		clearTimeout(timer);
		if (onAbort !== undefined) signal?.removeEventListener("abort", onAbort);
		return this.#status;
	}

	/**
	 * Resolves with the status once the server is no longer `connecting`, or after `timeoutMs` with the
	 * status at that moment.
	 */
	async settled(timeoutMs = this.timeoutMs): Promise<McpServerStatus> {
		if (this.#status.state !== "connecting") return this.#status;
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<void>((resolve) => {
			timer = setTimeout(resolve, timeoutMs);
		});
		await Promise.race([this.start(), timeout]);
		clearTimeout(timer);
		return this.#status;
	}

	/**
	 * Calls `tool` with `args` and resolves with the server's result as sent. Waits (bounded by the
	 * timeout) for a server that is still connecting. Rejects with a `GantryMcpError` when the server is
	 * not available, and with the SDK's `McpError` for protocol errors, timeouts and aborts.
	 */
	async callTool(tool: string, args: Record<string, unknown>, options: McpCallOptions = {}): Promise<McpCallResult> {
		const status = await this.settled();
		const client = this.#client;
		if (status.state !== "ready" || client === undefined) throw this.#unavailable(status);
		const result = await client.callTool(
			{ name: tool, arguments: args },
			undefined,
			withoutUndefined({
				signal: options.signal,
				timeout: this.timeoutMs,
				resetTimeoutOnProgress: true,
				onprogress: options.onProgress
					? (progress: { progress: number; total?: number | undefined; message?: string | undefined }) =>
							options.onProgress?.(withoutUndefined(progress))
					: // A callback makes the SDK send a progress token, and progress restarts the timeout either way.
						() => {},
			}),
		);
		return result as McpCallResult;
	}

	/** Explains an error from `callTool` in one sentence for the model and the user. */
	describeCallError(tool: string, error: unknown): string {
		if (error instanceof GantryMcpError) return error.message;
		if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
			const seconds = Math.round(this.timeoutMs / 100) / 10;
			const hint = this.#lastProtocolError ? ` Its last unreadable output: ${this.#lastProtocolError}.` : "";
			return `MCP server "${this.name}" did not answer the call to "${tool}" within ${seconds} s (raise "timeoutMs" in its settings if it needs longer).${hint}`;
		}
		if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
			const stderr =
				this.#status.state === "failed" && this.#status.stderr ? ` Its stderr ends with: ${this.#status.stderr}` : "";
			return `MCP server "${this.name}" closed the connection during the call to "${tool}".${stderr}`;
		}
		return `MCP server "${this.name}" failed the call to "${tool}": ${errorText(error)}`;
	}

	/** Closes the session and ends the server's process. Safe to call more than once. */
	async close(): Promise<void> {
		this.#closing = true;
		const client = this.#client;
		this.#client = undefined;
		if (client !== undefined) await client.close().catch(() => {});
		if (this.#status.state !== "failed") this.#setStatus({ state: "closed" });
	}

	async #connect(): Promise<void> {
		const attempts = isStdioConfig(this.settings)
			? [
					() =>
						createStdioTransport(
							this.settings as Parameters<typeof createStdioTransport>[0],
							this.#options.cwd,
							this.#stderr,
							this.#options.sandboxCommand,
						),
				]
			: createHttpTransports(this.settings as Parameters<typeof createHttpTransports>[0]);
		let lastError: unknown;
		for (const createTransport of attempts) {
			if (this.#closing) return;
			const client = this.#createClient();
			try {
				const transport = await createTransport();
				await client.connect(transport, { timeout: this.timeoutMs });
				if (transport instanceof StdioClientTransport) this.#pid = transport.pid ?? undefined;
				if (this.#closing) {
					await client.close().catch(() => {});
					return;
				}
				this.#client = client;
				client.onclose = () => this.#onClosed(client);
				await this.#listTools();
				this.#setStatus({ state: "ready", toolCount: this.#tools.length });
				return;
			} catch (error) {
				lastError = error;
				await client.close().catch(() => {});
				if (this.#client === client) this.#client = undefined;
			}
		}
		if (this.#closing) return;
		this.#fail(`could not connect: ${errorText(lastError)}`);
	}

	#createClient(): Client {
		const client = new Client(
			{ name: PACKAGE_NAME, version: PACKAGE_VERSION },
			{ capabilities: {}, jsonSchemaValidator: new LinearSchemaValidator() },
		);
		client.onerror = (error) => {
			this.#lastProtocolError = errorText(error).slice(0, 300);
		};
		client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
			if (this.#client !== client) return;
			try {
				await this.#listTools();
				if (this.#status.state === "ready") this.#setStatus({ state: "ready", toolCount: this.#tools.length });
			} catch (error) {
				this.#lastProtocolError = `tools/list after list_changed failed: ${errorText(error)}`;
			}
		});
		return client;
	}

	/** Lists every page of tools; concurrent refreshes run one after the other. */
	#listTools(): Promise<void> {
		const run = this.#listing.then(async () => {
			const client = this.#client;
			if (client === undefined) return;
			const tools: McpTool[] = [];
			let cursor: string | undefined;
			do {
				const page = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: this.timeoutMs });
				tools.push(...page.tools);
				cursor = page.nextCursor;
			} while (cursor !== undefined);
			this.#tools = tools;
			try {
				this.#options.onToolsChanged?.(tools);
			} catch {
				// A broken listener must not break the connection.
			}
		});
		this.#listing = run.catch(() => {});
		return run;
	}

	#onClosed(client: Client): void {
		if (this.#client !== client || this.#closing) return;
		this.#client = undefined;
		this.#fail("the server closed the connection (its process exited?)");
	}

	#fail(error: string): void {
		const stderr = this.#stderr.text;
		this.#tools = [];
		this.#setStatus(stderr === "" ? { state: "failed", error } : { state: "failed", error, stderr });
		try {
			this.#options.onToolsChanged?.([]);
		} catch {
			// See #listTools.
		}
	}

	#unavailable(status: McpServerStatus): GantryMcpError {
		if (status.state === "connecting")
			return new GantryMcpError(
				"server_unavailable",
				`MCP server "${this.name}" is still starting; try again shortly.`,
			);
		if (status.state === "failed") {
			const stderr = status.stderr ? ` Its stderr ends with: ${status.stderr}` : "";
			return new GantryMcpError(
				"server_unavailable",
				`MCP server "${this.name}" is not available: ${status.error}.${stderr}`,
			);
		}
		return new GantryMcpError("server_unavailable", `MCP server "${this.name}" is closed.`);
	}

	#setStatus(status: McpServerStatus): void {
		if (JSON.stringify(status) === JSON.stringify(this.#status) && status.state !== "connecting") return;
		this.#status = status;
		try {
			this.#options.onStatus?.(status);
		} catch {
			// See #listTools.
		}
	}
}
