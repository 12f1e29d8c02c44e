import { deserializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/**
 * A stdio transport's read buffer in linear time. The SDK's `ReadBuffer` joins every chunk onto all that
 * came before, so one 40 MB message (640 pipe chunks) copied about 13 GB and took over a minute; this one
 * keeps the chunks, looks for the newline in each chunk once, and joins a message's chunks once. It has
 * the SDK buffer's methods (`append`, `readMessage`, `clear`), and like it throws from `append` past
 * `maxBytes` unread (the transport then reports the error and closes).
 */
export class LineBuffer {
	readonly #maxBytes: number;
	#parts: Buffer[] = [];
	#size = 0;
	/** Parts before this index hold no newline. */
	#scanned = 0;

	constructor(maxBytes: number) {
		this.#maxBytes = maxBytes;
	}

	append(chunk: Buffer): void {
		if (this.#size + chunk.length > this.#maxBytes) {
			this.clear();
			throw new Error(
				`An MCP server sent a message over ${Math.round(this.#maxBytes / 1024 / 1024)} MiB; it was dropped.`,
			);
		}
		this.#parts.push(chunk);
		this.#size += chunk.length;
	}

	readMessage(): JSONRPCMessage | null {
		for (let index = this.#scanned; index < this.#parts.length; index++) {
			const part = this.#parts[index] as Buffer;
			const newline = part.indexOf(0x0a);
			if (newline === -1) continue;
			const line = Buffer.concat([...this.#parts.slice(0, index), part.subarray(0, newline)]);
			const rest = part.subarray(newline + 1);
			this.#parts = rest.length > 0 ? [rest, ...this.#parts.slice(index + 1)] : this.#parts.slice(index + 1);
			this.#size -= line.length + 1;
			this.#scanned = 0;
			return deserializeMessage(line.toString("utf8").replace(/\r$/, ""));
		}
		this.#scanned = this.#parts.length;
		return null;
	}

	clear(): void {
		this.#parts = [];
		this.#size = 0;
		this.#scanned = 0;
	}
}
