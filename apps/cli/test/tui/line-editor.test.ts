import { describe, expect, it } from "vitest";
import type { KeyPress } from "../../src/tui/key-input.js";
import { LineEditor } from "../../src/tui/line-editor.js";

const key = (name: string, ctrl = false): KeyPress => ({ name, sequence: "", ctrl, meta: false, shift: false });
const text = (sequence: string): KeyPress => ({ sequence, ctrl: false, meta: false, shift: false });

function typeInto(editor: LineEditor, ...keys: KeyPress[]): void {
	for (const press of keys) editor.handle(press);
}

describe("LineEditor", () => {
	it("inserts at the cursor and edits the line", () => {
		const editor = new LineEditor();
		typeInto(editor, text("helo"), key("left"), text("l"), key("end"), text(" world"));
		expect(editor.text).toBe("hello world");
		typeInto(editor, key("w", true));
		expect(editor.text).toBe("hello ");
		typeInto(editor, key("backspace"), key("home"), key("delete"));
		expect(editor.text).toBe("ello");
		typeInto(editor, key("right"), key("k", true));
		expect(editor.text).toBe("e");
		expect(editor.handle(key("return"))).toBe("submit");
	});

	it("brings back earlier lines with up and down", () => {
		const editor = new LineEditor();
		typeInto(editor, text("first"));
		editor.take();
		typeInto(editor, text("second"));
		editor.take();
		typeInto(editor, text("draft"), key("up"));
		expect(editor.text).toBe("second");
		typeInto(editor, key("up"));
		expect(editor.text).toBe("first");
		typeInto(editor, key("down"), key("down"));
		expect(editor.text).toBe("draft");
	});

	it("scrolls a long line so the cursor stays visible", () => {
		const editor = new LineEditor();
		typeInto(editor, text("0123456789abcdefghij"));
		const view = editor.view(2, 12);
		expect(view.text).toBe("bcdefghij");
		expect(view.column).toBe(11);
		typeInto(editor, key("home"));
		expect(editor.view(2, 12)).toEqual({ text: "012345678", column: 2 });
	});

	it("keeps the lines of a bracketed paste, and Enter inside it does not submit", () => {
		const editor = new LineEditor();
		typeInto(editor, text("see:"), key("paste-start"), text("line one"), key("return"), text("line two"));
		expect(editor.handle(key("return"))).toBe("changed");
		typeInto(editor, key("paste-end"));
		expect(editor.text).toBe("see:line one\nline two\n");
		expect(editor.view(2, 80).text).toBe("see:line one↵line two↵");
		expect(editor.handle(key("return"))).toBe("submit");
		expect(editor.take()).toBe("see:line one\nline two\n");
	});

	it("starts a new line on Alt-Enter, Shift-Enter, Ctrl-J and backslash + Enter", () => {
		const editor = new LineEditor();
		typeInto(editor, text("a"), { ...key("return"), meta: true }, text("b"), { ...key("return"), shift: true });
		typeInto(editor, text("c"), key("enter"), text("d\\"));
		expect(editor.handle(key("return"))).toBe("changed");
		typeInto(editor, text("e"));
		expect(editor.text).toBe("a\nb\nc\nd\ne");
		expect(editor.handle(key("return"))).toBe("submit");
	});

	it("puts a text back as the line", () => {
		const editor = new LineEditor();
		typeInto(editor, text("draft"));
		editor.restore("queued\nprompt");
		expect(editor.text).toBe("queued\nprompt");
		expect(editor.view(2, 80)).toEqual({ text: "queued↵prompt", column: 15 });
	});
});
