import { visibleWidth } from "./ansi.js";
import { isPrintable, type KeyPress } from "./key-input.js";

/** What a key did to the line. */
export type EditResult = "submit" | "changed" | "ignored";

/** How a new line inside the prompt is drawn on the one prompt row. */
export const NEWLINE_MARK = "↵";

/**
 * A prompt editor on one row: insert at the cursor, Backspace/Delete, ←/→, Home/End (Ctrl-A/Ctrl-E),
 * Ctrl-U and Ctrl-K (cut before/after the cursor), Ctrl-W (cut a word), ↑/↓ through earlier prompts,
 * Enter submits. The text may hold new lines (drawn as `↵`): a bracketed paste keeps its lines, and
 * Alt-Enter, Shift-Enter (where the terminal tells it apart), Ctrl-J or `\` + Enter start a new line.
 */
export class LineEditor {
	#chars: string[] = [];
	/** Between the terminal's paste-start and paste-end marks: Enter is a new line, not a submit. */
	#pasting = false;
	#cursor = 0;
	readonly #history: string[] = [];
	/** Position in the history while browsing it (history length = not browsing). */
	#historyIndex = 0;
	#draft: string[] = [];

	get text(): string {
		return this.#chars.join("");
	}

	/** Applies one key. */
	handle(key: KeyPress): EditResult {
		if (isPrintable(key)) return this.#insert(key.sequence.replace(/\r\n?/g, "\n"));
		const name = key.ctrl ? `ctrl-${key.name}` : key.name;
		switch (name) {
			case "paste-start":
				this.#pasting = true;
				return "ignored";
			case "paste-end":
				this.#pasting = false;
				return "ignored";
			case "return":
			case "enter":
				return this.#enter(key);
			case "ctrl-j":
				return this.#insert("\n");
			case "backspace":
				if (this.#cursor === 0) return "ignored";
				this.#chars.splice(--this.#cursor, 1);
				return "changed";
			case "delete":
			case "ctrl-d":
				if (this.#cursor >= this.#chars.length) return "ignored";
				this.#chars.splice(this.#cursor, 1);
				return "changed";
			case "left":
			case "ctrl-b":
				return this.#moveTo(this.#cursor - 1);
			case "right":
			case "ctrl-f":
				return this.#moveTo(this.#cursor + 1);
			case "home":
			case "ctrl-a":
				return this.#moveTo(0);
			case "end":
			case "ctrl-e":
				return this.#moveTo(this.#chars.length);
			case "ctrl-u":
				this.#chars.splice(0, this.#cursor);
				this.#cursor = 0;
				return "changed";
			case "ctrl-k":
				this.#chars.splice(this.#cursor);
				return "changed";
			case "ctrl-w":
				return this.#deleteWordBefore();
			case "up":
				return this.#browse(-1);
			case "down":
				return this.#browse(1);
			default:
				return "ignored";
		}
	}

	/** Returns the line, remembers it in the history and empties the editor. */
	take(): string {
		const text = this.text;
		if (text.trim() !== "" && this.#history.at(-1) !== text) this.#history.push(text);
		this.clear();
		return text;
	}

	/** Puts `text` back as the line (cursor at its end), e.g. a queued prompt whose run was aborted. */
	restore(text: string): void {
		this.clear();
		this.#insert(text);
	}

	clear(): void {
		this.#chars = [];
		this.#cursor = 0;
		this.#historyIndex = this.#history.length;
		this.#draft = [];
	}

	/**
	 * The visible part of the line for `width` columns after a prompt of `promptWidth` columns (scrolled
	 * so the cursor stays in view), and the cursor's column.
	 */
	view(promptWidth: number, width: number): { text: string; column: number } {
		const shown = this.#chars.map((char) => (char === "\n" ? NEWLINE_MARK : char));
		const room = Math.max(1, width - promptWidth - 1);
		let start = 0;
		while (start < this.#cursor && visibleWidth(shown.slice(start, this.#cursor).join("")) > room) start++;
		let end = start;
		while (end < shown.length && visibleWidth(shown.slice(start, end + 1).join("")) <= room) end++;
		const column = promptWidth + visibleWidth(shown.slice(start, this.#cursor).join(""));
		return { text: shown.slice(start, end).join(""), column };
	}

	#insert(text: string): EditResult {
		const inserted = Array.from(text);
		this.#chars.splice(this.#cursor, 0, ...inserted);
		this.#cursor += inserted.length;
		return "changed";
	}

	/** Enter submits, except inside a paste, with Alt or Shift, or right after a backslash (which it replaces). */
	#enter(key: KeyPress): EditResult {
		if (this.#pasting || key.meta || key.shift || key.name === "enter") return this.#insert("\n");
		if (this.#chars[this.#cursor - 1] === "\\") {
			this.#chars.splice(--this.#cursor, 1);
			return this.#insert("\n");
		}
		return "submit";
	}

	#moveTo(position: number): EditResult {
		const next = Math.max(0, Math.min(this.#chars.length, position));
		if (next === this.#cursor) return "ignored";
		this.#cursor = next;
		return "changed";
	}

	#deleteWordBefore(): EditResult {
		if (this.#cursor === 0) return "ignored";
		let start = this.#cursor;
		while (start > 0 && this.#chars[start - 1] === " ") start--;
		while (start > 0 && this.#chars[start - 1] !== " ") start--;
		this.#chars.splice(start, this.#cursor - start);
		this.#cursor = start;
		return "changed";
	}

	#browse(step: number): EditResult {
		const next = this.#historyIndex + step;
		if (next < 0 || next > this.#history.length) return "ignored";
		if (this.#historyIndex === this.#history.length) this.#draft = this.#chars;
		this.#historyIndex = next;
		// Past the newest entry lies the draft being typed before browsing began.
		const entry = this.#history[next];
		this.#chars = entry === undefined ? this.#draft : Array.from(entry);
		this.#cursor = this.#chars.length;
		return "changed";
	}
}
