import { emitKeypressEvents } from "node:readline";
import type { ReadStream } from "node:tty";
import { withoutUndefined } from "@gantry/ai";

/** One key press as node:readline decodes it. */
export interface KeyPress {
	/** The characters typed (for printable keys), else the escape sequence. */
	sequence: string;
	/** `"return"`, `"backspace"`, `"up"`, `"c"` (with `ctrl`), … */
	name?: string;
	ctrl: boolean;
	meta: boolean;
	shift: boolean;
}

/** Handles a key; return true when handled, false to let the handler below try. */
export type KeyHandler = (key: KeyPress) => boolean;

/**
 * Reads the terminal key by key (raw mode, decoded by node:readline) and hands each key to a stack of
 * handlers, topmost first: the prompt line at the bottom, a run's Ctrl-C handler above it, a question
 * above that.
 */
export class KeyInput {
	readonly #stdin: ReadStream;
	readonly #handlers: KeyHandler[] = [];
	readonly #onKeypress = (text: string | undefined, key: Partial<KeyPress> | undefined) => {
		const press: KeyPress = {
			sequence: key?.sequence ?? text ?? "",
			...withoutUndefined({ name: key?.name }),
			ctrl: key?.ctrl ?? false,
			meta: key?.meta ?? false,
			shift: key?.shift ?? false,
		};
		// Over the live list, not a copy: a handler may push or remove handlers while it runs.
		for (let index = this.#handlers.length - 1; index >= 0; index--) {
			const handler = this.#handlers[index];
			if (handler === undefined) throw new Error(`Key handler ${index} was removed while a key was handled`);
			if (handler(press)) return;
		}
	};

	constructor(stdin: ReadStream) {
		this.#stdin = stdin;
		emitKeypressEvents(stdin);
		stdin.setRawMode(true);
		stdin.on("keypress", this.#onKeypress);
		stdin.resume();
	}

	/** Puts `handler` on top; returns the function that removes it. */
	push(handler: KeyHandler): () => void {
		this.#handlers.push(handler);
		return () => {
			const index = this.#handlers.lastIndexOf(handler);
			if (index !== -1) this.#handlers.splice(index, 1);
		};
	}

	/** Gives the terminal back: cooked mode, no more reading. */
	close(): void {
		this.#stdin.off("keypress", this.#onKeypress);
		this.#stdin.setRawMode(false);
		this.#stdin.pause();
	}
}

/** Whether a key inserts text (not a control or escape sequence). */
export function isPrintable(key: KeyPress): boolean {
	if (key.ctrl || key.meta) return false;
	if (key.sequence === "" || key.sequence.startsWith("\x1b")) return false;
	return Array.from(key.sequence).every((char) => {
		const code = char.codePointAt(0) ?? 0;
		return code >= 0x20 && code !== 0x7f;
	});
}
