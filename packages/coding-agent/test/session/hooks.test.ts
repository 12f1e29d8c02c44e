import { createFauxModel } from "@gantry/ai";
import type { Extension } from "@gantry/extensions";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

describe("permissions and result hooks", () => {
	it("blocks a call with the handler's reason; the tool never runs", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const blocker: Extension = (api) => {
				api.on("tool_call", (event) => (event.toolName === "echo" ? { block: true, reason: "not today" } : undefined));
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [blocker],
			});
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result.isError).toBe(true);
			expect(textOf(result)).toBe("not today");
			expect(echo.calls).toEqual([]);
			await session.dispose();
		}));

	it("lets a handler change the arguments by mutating event.input", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const rewriter: Extension = (api) => {
				api.on("tool_call", (event) => {
					event.input.text = `${String(event.input.text)}!`;
				});
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [rewriter],
			});
			await session.prompt("go");
			expect(echo.calls).toEqual(["x!"]);
			// The transcript keeps what the model sent.
			const assistant = session.messages.find((message) => (message as { role: string }).role === "assistant");
			expect(JSON.stringify(assistant)).toContain('"text":"x"');
			await session.dispose();
		}));

	it("fails closed when a tool_call handler throws", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const broken: Extension = (api) => {
				api.on("tool_call", () => {
					throw new Error("policy crashed");
				});
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [broken],
			});
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result.isError).toBe(true);
			expect(textOf(result)).toContain("policy crashed");
			expect(echo.calls).toEqual([]);
			await session.dispose();
		}));

	it("ends the run when a blocking handler asks to terminate", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const stopper: Extension = (api) => {
				api.on("tool_call", () => ({ block: true, reason: "stop here", terminate: true }));
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "never" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [stopper],
			});
			await session.prompt("go");
			expect(model.calls).toHaveLength(1);
			await session.dispose();
		}));

	it("rewrites results, then normalises images the extension added to the model's limits", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const big = await sharp({ create: { width: 3000, height: 1000, channels: 3, background: "#336699" } })
				.png()
				.toBuffer();
			const imager: Extension = (api) => {
				api.on("tool_result", (event) => ({
					content: [...event.content, { type: "image", data: big.toString("base64"), mimeType: "image/png" }],
				}));
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [imager],
			});
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			const image = result.content.find((block) => block.type === "image");
			expect(image).toBeDefined();
			const metadata = await sharp(Buffer.from(image?.data ?? "", "base64")).metadata();
			expect(metadata.width).toBeLessThanOrEqual(2000);
			expect(textOf(result)).toContain("echo:x");
			await session.dispose();
		}));

	it("leaves images untouched with images.autoResize false", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo");
			const big = await sharp({ create: { width: 2500, height: 100, channels: 3, background: "#000" } })
				.png()
				.toBuffer();
			const imager: Extension = (api) => {
				api.on("tool_result", () => ({
					content: [{ type: "image", data: big.toString("base64"), mimeType: "image/png" }],
				}));
			};
			const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				customTools: [echo.definition],
				extensions: [imager],
				images: { autoResize: false },
			});
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result.content[0].data).toBe(big.toString("base64"));
			await session.dispose();
		}));
});
