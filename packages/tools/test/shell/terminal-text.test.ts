import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createBashToolDefinition } from "../../src/shell/bash.js";
import { plainTerminalText } from "../../src/shell/terminal-text.js";

describe("plainTerminalText", () => {
	it("removes colour, cursor and erase sequences", () => {
		expect(plainTerminalText("\u001b[1;32mPASS\u001b[0m ok\u001b[K\n\u001b[2A\u001b[?25lnext")).toBe("PASS ok\nnext");
	});

	it("removes window-title and hyperlink sequences (OSC, ended by BEL or ESC \\)", () => {
		const link = "\u001b]8;;https://example.invalid\u001b\\docs\u001b]8;;\u001b\\";
		expect(plainTerminalText(`\u001b]0;title\u0007${link} here`)).toBe("docs here");
	});

	it("removes character-set choices and two-byte escapes", () => {
		expect(plainTerminalText("\u001b(Bplain\u001b=\u001b>")).toBe("plain");
	});

	it("drops an incomplete sequence at the very end (output still arriving)", () => {
		expect(plainTerminalText("building\u001b[3")).toBe("building");
		expect(plainTerminalText("done\u001b")).toBe("done");
	});

	it("turns CRLF into LF and keeps a lone carriage return", () => {
		expect(plainTerminalText("a\r\nb\r\n")).toBe("a\nb\n");
		expect(plainTerminalText("one\rtwo")).toBe("one\rtwo");
		expect(plainTerminalText("cut after the CR\r")).toBe("cut after the CR");
	});

	it("returns text without escapes or CRLF unchanged", () => {
		const text = "plain [brackets] and ]] and a tab\t";
		expect(plainTerminalText(text)).toBe(text);
	});
});

describe("bash output for the model", () => {
	let folder: string;
	beforeEach(async () => {
		folder = await realpath(await mkdtemp(join(tmpdir(), "gantry-terminal-text-")));
	});
	afterEach(async () => {
		await rm(folder, { recursive: true, force: true });
	});

	const run = (command: string) =>
		createBashToolDefinition(folder, { tempDir: folder }).execute(
			"call-1",
			{ command },
			undefined,
			undefined,
			undefined as unknown as ExtensionToolContext,
		);

	it("has no colour codes or CRLF, in the text and in structuredContent", async () => {
		const result = await run("printf '\\033[31mred\\033[0m\\r\\n\\033[1mbold\\033[22m\\r\\n'");
		expect(result.content).toEqual([{ type: "text", text: "red\nbold" }]);
		expect(result.structuredContent).toMatchObject({ output: "red\nbold" });
	});

	it("keeps the full-output file byte for byte", async () => {
		const result = await run("for i in $(seq 3000); do printf '\\033[32m%s\\033[0m\\r\\n' $i; done");
		const text = result.content[0]?.type === "text" ? result.content[0].text : "";
		expect(text).toContain("\n2999\n3000\n\n[Showing last");
		expect(text).not.toContain("\u001b");
		const path = result.details?.fullOutputPath;
		if (path === undefined) throw new Error("expected a full-output file");
		expect(await readFile(path, "utf8")).toContain("\u001b[32m3000\u001b[0m\r\n");
	});
});
