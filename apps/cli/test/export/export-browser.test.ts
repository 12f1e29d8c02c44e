/// <reference lib="dom" />
// The page callbacks run in the browser, so this file sees the DOM types.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createFauxModel } from "@gantry/ai";
import { createAgentSession } from "@gantry/coding-agent";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli.js";
import type { CliIo } from "../../src/io.js";
import { EXAMPLES } from "../helpers/run-cli.js";
import { launchBrowser } from "./browser.js";

const DOCS = fileURLToPath(new URL("../../../../docs/", import.meta.url));
// A 2×2 red PNG.
const PNG =
	"iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==";
const usage = (total: number) => ({
	input: 1200,
	output: 80,
	cost: { input: total / 2, output: total / 2, cacheRead: 0, cacheWrite: 0, total },
});

let dir: string;
let browser: Browser;
let transcript: string;

/** Runs a real session with a scripted model: read (text, image), edit, bash, a failing call, nested calls. */
async function recordSession(): Promise<void> {
	writeFileSync(join(dir, "notes.html"), "<script>window.__pwned = 1</script>\n<b>not bold</b>\n");
	writeFileSync(join(dir, "app.js"), 'const greeting = "helo";\nconsole.log(greeting);\n');
	writeFileSync(join(dir, "dot.png"), Buffer.from(PNG, "base64"));
	const session = await createAgentSession({
		cwd: dir,
		sessionFile: join(dir, "session.jsonl"),
		extensions: [join(EXAMPLES, "run-tools.ts")],
		model: createFauxModel([
			{
				thinking: "The greeting is misspelled; read the files first.",
				text: "Let me **look** at the files.",
				toolCalls: [
					{ name: "read", arguments: { path: "notes.html" } },
					{ name: "read", arguments: { path: "dot.png" } },
				],
				usage: usage(0.0123),
			},
			{
				toolCalls: [
					{ name: "edit", arguments: { path: "app.js", edits: [{ oldText: '"helo"', newText: '"hello"' }] } },
				],
			},
			{ toolCalls: [{ name: "bash", arguments: { command: "node app.js && echo '<i>done</i>'" } }] },
			{ toolCalls: [{ name: "read", arguments: { path: "missing.txt" } }] },
			{ toolCalls: [{ name: "run_tools", arguments: { calls: [{ name: "read", args: { path: "app.js" } }] } }] },
			{ text: "Fixed the greeting.", usage: usage(0.0042) },
			{ text: "You're welcome." },
		]),
	});
	await session.prompt("Fix the greeting in app.js");
	session.setActiveToolsByName(session.getActiveToolNames().filter((name) => name !== "write"));
	await session.prompt("Thanks!");
	await session.dispose();
	transcript = join(dir, "session.jsonl");
}

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "gantry-export-test-"));
	[browser] = await Promise.all([launchBrowser(), recordSession()]);
});
afterAll(async () => {
	await browser?.close();
	rmSync(dir, { recursive: true, force: true });
});

function captureIo() {
	const out = { stdout: "", stderr: "" };
	const stream = (key: "stdout" | "stderr") => ({
		write(text: string) {
			out[key] += text;
			return true;
		},
	});
	const io = { stdin: process.stdin, stdout: stream("stdout"), stderr: stream("stderr"), env: {} };
	return { out, io: io as unknown as CliIo };
}

describe("gantry export in a real browser", () => {
	it("writes one self-contained page that shows the session, escaped, with coloured diffs", async () => {
		const { out, io } = captureIo();
		expect(await runCli(["export", transcript], io)).toBe(0);
		const page = join(dir, "session.html");
		expect(out.stdout.trim()).toBe(page);
		const html = readFileSync(page, "utf8");
		// Self-contained: no external URL anywhere.
		expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
		expect(html).not.toMatch(/@import|url\(\s*["']?http/i);
		expect(html).not.toContain("<script>window.__pwned");

		const tab = await browser.newPage({ viewport: { width: 1000, height: 900 } });
		const problems: string[] = [];
		tab.on("console", (message) => {
			if (message.type() === "error") problems.push(message.text());
		});
		tab.on("pageerror", (error) => problems.push(error.message));
		tab.on("request", (request) => {
			if (!request.url().startsWith("file:") && !request.url().startsWith("data:")) problems.push(request.url());
		});
		await tab.goto(pathToFileURL(page).href);

		// biome-ignore lint/performance/useDomNodeTextContent: the page is checked as a reader sees it (rendered text)
		const body = await tab.locator("body").innerText();
		expect(body).toContain("Fix the greeting in app.js");
		expect(body).toContain("Thanks!");
		expect(body).toContain("Fixed the greeting.");
		// The file's script is text on the page and never ran.
		expect(body).toContain("<script>window.__pwned = 1</script>");
		expect(body).toContain("<b>not bold</b>");
		expect(await tab.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
		expect(await tab.locator("b", { hasText: "not bold" }).count()).toBe(0);
		// Thinking is collapsed.
		const thinking = tab.locator("details.thinking");
		expect(await thinking.evaluate((element) => (element as HTMLDetailsElement).open)).toBe(false);
		// biome-ignore lint/performance/useDomNodeTextContent: the page is checked as a reader sees it (rendered text)
		expect(await thinking.innerText()).toContain("Thinking");
		// The edit's diff: removed line red, added line green.
		const color = (text: string) =>
			tab
				.locator("details.tool span", { hasText: text })
				.last()
				.evaluate((element) => getComputedStyle(element).color);
		expect(await color('"helo"')).toBe("rgb(224, 108, 117)");
		expect(await color('"hello"')).toBe("rgb(152, 195, 121)");
		// Bash output, escaped.
		expect(body).toContain("<i>done</i>");
		// The failing read is marked as an error.
		const failed = tab.locator("details.tool.error", { hasText: "missing.txt" });
		expect(await failed.count()).toBe(1);
		// biome-ignore lint/performance/useDomNodeTextContent: the page is checked as a reader sees it (rendered text)
		expect(await failed.locator(".status").innerText()).toContain("✗");
		// The nested read inside run_tools' frame.
		// biome-ignore lint/performance/useDomNodeTextContent: the page is checked as a reader sees it (rendered text)
		expect(await tab.locator("details.tool", { hasText: "run_tools" }).innerText()).toMatch(/│ ╭─ read app\.js/);
		// The image as a data URL, loaded.
		const image = tab.locator("details.tool img").first();
		expect(await image.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
		expect(await image.evaluate((element) => (element as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
		// Cost per turn and the tool set change.
		expect(body).toContain("$0.0123");
		expect(body).toMatch(/Active tools changed: − write/);
		expect(problems).toEqual([]);

		// GANTRY_UPDATE_SCREENSHOT=1 refreshes the README's picture (docs/transcript.png).
		const shot =
			process.env.GANTRY_UPDATE_SCREENSHOT === "1" ? join(DOCS, "transcript.png") : join(dir, "transcript.png");
		mkdirSync(join(shot, ".."), { recursive: true });
		const png = await tab.screenshot({ path: shot });
		expect(png.subarray(1, 4).toString()).toBe("PNG");
		await tab.close();
	});

	it("opens a 500-call transcript in under 5 s", async () => {
		const lines: unknown[] = [
			{ type: "session", version: 1, id: "big", cwd: dir, createdAt: new Date(0).toISOString() },
		];
		lines.push({
			type: "message",
			message: { role: "user", content: [{ type: "text", text: "Read them all" }], timestamp: 0 },
		});
		for (let index = 0; index < 500; index++) {
			const id = `call_${index}`;
			lines.push({
				type: "message",
				message: {
					role: "assistant",
					content: [{ type: "toolCall", id, name: "bash", arguments: { command: `cat part-${index}.txt` } }],
					api: "faux",
					provider: "faux",
					model: "faux-1",
					usage: { ...usage(0.001), cacheRead: 0, cacheWrite: 0, totalTokens: 1280 },
					stopReason: "toolUse",
					timestamp: index,
				},
			});
			const output = Array.from({ length: 20 }, (_, line) => `part ${index} line ${line} <tag>`).join("\n");
			lines.push({
				type: "message",
				message: {
					role: "toolResult",
					toolCallId: id,
					toolName: "bash",
					content: [{ type: "text", text: output }],
					isError: index % 50 === 0,
					durationMs: 12,
					timestamp: index,
				},
			});
		}
		const big = join(dir, "big.jsonl");
		writeFileSync(big, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
		const { io } = captureIo();
		expect(await runCli(["export", big, "-o", join(dir, "big-page.html")], io)).toBe(0);

		const tab = await browser.newPage();
		const errors: string[] = [];
		tab.on("pageerror", (error) => errors.push(error.message));
		await tab.goto(pathToFileURL(join(dir, "big-page.html")).href, { waitUntil: "load" });
		const loadMs = await tab.evaluate(() => {
			const [navigation] = performance.getEntriesByType("navigation") as PerformanceNavigationTiming[];
			if (navigation === undefined) throw new Error("The page has no navigation timing entry");
			return navigation.loadEventEnd - navigation.startTime;
		});
		expect(await tab.locator("details.tool").count()).toBe(500);
		expect(await tab.locator("details.tool.error").count()).toBe(10);
		expect(loadMs).toBeGreaterThan(0);
		expect(loadMs).toBeLessThan(5000);
		expect(errors).toEqual([]);
		process.stderr.write(`500-call transcript: page loaded in ${Math.round(loadMs)} ms\n`);
		await tab.close();
	});
});
