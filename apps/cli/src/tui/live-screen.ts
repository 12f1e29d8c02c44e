import type { WriteStream } from "node:tty";
import { sanitizeLine, truncateToWidth, wordWrap } from "./ansi.js";
import type { FooterCursor, Screen } from "./screen.js";

const ESC = "\x1b[";
const HIDE_CURSOR = `${ESC}?25l`;
const SHOW_CURSOR = `${ESC}?25h`;
const BEGIN_SYNC = `${ESC}?2026h`;
const END_SYNC = `${ESC}?2026l`;

/**
 * A terminal screen. Live lines, footer and the open streamed line are kept one row each (clipped or
 * wrapped to the width less one column, so the terminal never wraps them on its own); that makes the
 * number of rows to go back up exact when they are redrawn.
 */
export class LiveScreen implements Screen {
	readonly live = true;
	readonly #output: WriteStream;
	#partial = "";
	#liveLines: readonly string[] = [];
	#footer: readonly string[] = [];
	#footerCursor: FooterCursor | undefined;
	#drawnRows = 0;
	#cursorRow = 0;
	#cursorVisible = true;
	readonly #onResize = () => this.#redraw();

	constructor(output: WriteStream) {
		this.#output = output;
		output.on("resize", this.#onResize);
	}

	get columns(): number {
		return this.#output.columns || 80;
	}

	stream(text: string): void {
		if (text === "") return;
		const lines = (this.#partial + text).split("\n");
		this.#partial = lines.pop() ?? "";
		if (lines.length === 0) {
			this.#redraw();
			return;
		}
		const rows = lines.flatMap((line) => wordWrap(sanitizeLine(line), this.#textWidth()));
		this.#write(`${this.#erase()}${rows.join("\n")}\n${this.#draw()}`);
	}

	endLine(): void {
		if (this.#partial !== "") this.stream("\n");
	}

	setOpenLine(text: string): void {
		const line = text.replace(/\n/g, " ");
		if (line === this.#partial) return;
		this.#partial = line;
		this.#redraw();
	}

	commit(lines: readonly string[]): void {
		const open = this.#partial === "" ? "" : `${wordWrap(sanitizeLine(this.#partial), this.#textWidth()).join("\n")}\n`;
		this.#partial = "";
		const body = lines.length > 0 ? `${lines.map(sanitizeLine).join("\n")}\n` : "";
		this.#write(`${this.#erase()}${open}${body}${this.#draw()}`);
	}

	setLive(lines: readonly string[]): void {
		this.#liveLines = lines;
		this.#redraw();
	}

	setFooter(lines: readonly string[], cursor?: FooterCursor): void {
		this.#footer = lines;
		this.#footerCursor = cursor;
		this.#redraw();
	}

	close(): void {
		this.#liveLines = [];
		this.#footer = [];
		this.#footerCursor = undefined;
		const open = this.#partial === "" ? "" : `${wordWrap(sanitizeLine(this.#partial), this.#textWidth()).join("\n")}\n`;
		this.#partial = "";
		this.#write(`${this.#erase()}${open}${this.#setCursorVisible(true)}`);
		this.#output.off("resize", this.#onResize);
	}

	/** Columns streamed text is wrapped to: one less than the terminal's, so it never wraps by itself. */
	#textWidth(): number {
		return Math.max(10, this.columns - 1);
	}

	#redraw(): void {
		this.#write(this.#erase() + this.#draw());
	}

	#write(text: string): void {
		if (text !== "") this.#output.write(`${BEGIN_SYNC}${text}${END_SYNC}`);
	}

	/** Moves to the first drawn row and clears everything below; returns the escape text. */
	#erase(): string {
		if (this.#drawnRows === 0) return "";
		const up = this.#cursorRow > 0 ? `${ESC}${this.#cursorRow}A` : "";
		this.#drawnRows = 0;
		this.#cursorRow = 0;
		return `\r${up}${ESC}J`;
	}

	/**
	 * Draws the open line, live lines and footer from the current row; returns the text. Rows that do not
	 * fit the terminal's height are left out from the top (they could not be reached to redraw them).
	 */
	#draw(): string {
		const width = this.#textWidth();
		const clip = (line: string) => truncateToWidth(sanitizeLine(line), width);
		const partialRows = this.#partial === "" ? [] : wordWrap(sanitizeLine(this.#partial), width);
		const footerRows = this.#footer.map(clip);
		const maxBody = Math.max(1, (this.#output.rows || 24) - 1 - footerRows.length);
		let bodyRows = [...partialRows, ...this.#liveLines.map(clip)];
		if (bodyRows.length > maxBody) bodyRows = bodyRows.slice(bodyRows.length - maxBody);
		const rows = [...bodyRows, ...footerRows];
		const cursor = this.#footerCursor;
		let text = this.#setCursorVisible(cursor !== undefined);
		if (rows.length === 0) return text;
		text += rows.join("\n");
		this.#drawnRows = rows.length;
		this.#cursorRow = rows.length - 1;
		if (cursor !== undefined) {
			const target = Math.min(rows.length - 1, bodyRows.length + cursor.row);
			const up = this.#cursorRow - target;
			text += `${up > 0 ? `${ESC}${up}A` : ""}\r${cursor.column > 0 ? `${ESC}${cursor.column}C` : ""}`;
			this.#cursorRow = target;
		}
		return text;
	}

	#setCursorVisible(visible: boolean): string {
		if (visible === this.#cursorVisible) return "";
		this.#cursorVisible = visible;
		return visible ? SHOW_CURSOR : HIDE_CURSOR;
	}
}
