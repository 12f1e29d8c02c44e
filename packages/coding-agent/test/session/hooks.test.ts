import { createFauxModel } from "@gantry/ai";
import type { Extension } from "@gantry/extensions";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { type AgentSessionOptions, createAgentSession } from "../../src/index.js";
import { echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

/** Runs one model-issued `echo {text: "x"}` call in a session with `extension`, then a final text turn. */
async function runEchoCall(cwd: string, extension: Extension, options: Partial<AgentSessionOptions> = {}) {
	const echo = echoTool("echo");
	const model = createFauxModel([{ toolCalls: [{ name: "echo", arguments: { text: "x" } }] }, { text: "ok" }]);
	const session = await createAgentSession({
		cwd,
		model,
		noTools: "builtin",
		customTools: [echo.definition],
		extensions: [extension],
		...options,
	});
	await session.prompt("go");
	const [result] = toolResults(session.messages);
	await session.dispose();
	return { echo, model, session, result };
}

const pngOf = (width: number, height: number) =>
	sharp({ create: { width, height, channels: 3, background: "#336699" } })
		.png()
		.toBuffer();

describe("permissions and result hooks", () => {
	it("blocks a call with the handler's reason; the tool never runs", () =>
		withTempDir(async (cwd) => {
			const { echo, result } = await runEchoCall(cwd, (api) => {
				api.on("tool_call", (event) => (event.toolName === "echo" ? { block: true, reason: "not today" } : undefined));
			});
			expect(result?.isError).toBe(true);
			expect(textOf(result)).toBe("not today");
			expect(echo.calls).toEqual([]);
		}));

	it("lets a handler change the arguments by mutating event.input; the transcript keeps what the model sent", () =>
		withTempDir(async (cwd) => {
			const { echo, session } = await runEchoCall(cwd, (api) => {
				api.on("tool_call", (event) => {
					event.input.text = `${String(event.input.text)}!`;
				});
			});
			expect(echo.calls).toEqual(["x!"]);
			const assistant = session.messages.find((message) => (message as { role: string }).role === "assistant");
			expect(JSON.stringify(assistant)).toContain('"text":"x"');
		}));

	it("fails closed when a tool_call handler throws", () =>
		withTempDir(async (cwd) => {
			const { echo, result } = await runEchoCall(cwd, (api) => {
				api.on("tool_call", () => {
					throw new Error("policy crashed");
				});
			});
			expect(result?.isError).toBe(true);
			expect(textOf(result)).toContain("policy crashed");
			expect(echo.calls).toEqual([]);
		}));

	it("ends the run when a blocking handler asks to terminate", () =>
		withTempDir(async (cwd) => {
			const { model } = await runEchoCall(cwd, (api) => {
				api.on("tool_call", () => ({ block: true, reason: "stop here", terminate: true }));
			});
			expect(model.calls).toHaveLength(1);
		}));

	it("rewrites results, then normalises images the extension added to the model's limits", () =>
		withTempDir(async (cwd) => {
			const big = await pngOf(3000, 1000);
			const { result } = await runEchoCall(cwd, (api) => {
				api.on("tool_result", (event) => ({
					content: [...event.content, { type: "image", data: big.toString("base64"), mimeType: "image/png" }],
				}));
			});
			const image = result?.content.find((block) => block.type === "image");
			expect(image).toBeDefined();
			const metadata = await sharp(Buffer.from(image?.data ?? "", "base64")).metadata();
			expect(metadata.width).toBeLessThanOrEqual(2000);
			expect(textOf(result)).toContain("echo:x");
		}));

	it("leaves images untouched with images.autoResize false", () =>
		withTempDir(async (cwd) => {
			const big = await pngOf(2500, 100);
			const { result } = await runEchoCall(
				cwd,
				(api) => {
					api.on("tool_result", () => ({
						content: [{ type: "image", data: big.toString("base64"), mimeType: "image/png" }],
					}));
				},
				{ images: { autoResize: false } },
			);
			expect(result?.content[0]?.data).toBe(big.toString("base64"));
		}));
});
