/** Where the footer's cursor goes: a row of the footer lines and a column in it. */
export interface FooterCursor {
	row: number;
	column: number;
}

/**
 * Where a session is drawn. Output has two parts: committed text, written once and never touched again,
 * and live lines under it (running tools, a status line, the prompt) that a terminal redraws in place.
 */
export interface Screen {
	/** True when live lines are redrawn in place (a terminal); false for pipes and files. */
	readonly live: boolean;
	/** Columns to draw in, when known. */
	readonly columns: number | undefined;
	/** Streams text that may stop mid-line (assistant text as it arrives). */
	stream(text: string): void;
	/** Ends a streamed line that is still open. */
	endLine(): void;
	/**
	 * Replaces the text of the open streamed line (a terminal shows a line as it grows and then its
	 * styled form); ignored where nothing is redrawn, so there only finished lines should be streamed.
	 */
	setOpenLine(text: string): void;
	/** Writes finished lines below everything committed so far (on a fresh line). */
	commit(lines: readonly string[]): void;
	/** Replaces the live lines (ignored unless `live`). */
	setLive(lines: readonly string[]): void;
	/** Replaces the footer (prompt, question) under the live lines, and places the cursor in it. */
	setFooter(lines: readonly string[], cursor?: FooterCursor): void;
	/** Removes live lines and footer and ends any open line; the screen can still be written to. */
	close(): void;
}

/** A screen for pipes and files: committed text only, nothing redrawn. */
export class PlainScreen implements Screen {
	readonly live = false;
	readonly columns = undefined;
	readonly #output: { write(text: string): unknown };
	#atLineStart = true;

	constructor(output: { write(text: string): unknown }) {
		this.#output = output;
	}

	stream(text: string): void {
		if (text === "") return;
		this.#output.write(text);
		this.#atLineStart = text.endsWith("\n");
	}

	endLine(): void {
		if (!this.#atLineStart) this.stream("\n");
	}

	commit(lines: readonly string[]): void {
		this.endLine();
		if (lines.length > 0) this.stream(`${lines.join("\n")}\n`);
	}

	setOpenLine(): void {}

	setLive(): void {}

	setFooter(): void {}

	close(): void {
		this.endLine();
	}
}
