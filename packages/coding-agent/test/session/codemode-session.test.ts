import { createFauxModel } from "@gantry/ai";
import type { Extension } from "@gantry/extensions";
import { describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { declaredNames, echoTool, textOf, toolResults, withTempDir } from "./helpers.js";

describe("codemode in a session", () => {
	it("is inactive until named; scripts call tools through the pipeline and the records land on the codemode call", () =>
		withTempDir(async (cwd) => {
			const echo = echoTool("echo", { exposure: "codemode" });
			const blocker: Extension = (api) => {
				api.on("tool_call", (event) =>
					event.toolName === "echo" && event.input.text === "forbidden"
						? { block: true, reason: "no forbidden words" }
						: undefined,
				);
			};
			const code = [
				'const a = await tools.echo({ text: "one" });',
				'let blocked = "";',
				'try { await tools.echo({ text: "forbidden" }); } catch (error) { blocked = error.message; }',
				"text(JSON.stringify(a));",
				"return blocked;",
			].join("\n");
			const model = createFauxModel([
				{ toolCalls: [{ id: "cm", name: "codemode", arguments: { code } }] },
				{ text: "ok" },
			]);
			const plain = await createAgentSession({
				cwd,
				model: createFauxModel([]),
				noTools: "builtin",
				customTools: [echo.definition],
			});
			expect(plain.getActiveToolNames()).not.toContain("codemode");
			await plain.dispose();

			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				tools: ["*", "codemode"],
				customTools: [echo.definition],
				extensions: [blocker],
			});
			await session.prompt("go");
			expect(declaredNames(model.calls[0])).toEqual(["codemode"]);
			expect(model.calls[0]?.tools?.[0]?.description).toContain("echo");
			const [result] = toolResults(session.messages);
			const text = textOf(result);
			expect(text.split("\n")[0]).toBe("Script completed");
			// echo declares no outputSchema, so a call resolves to its text
			expect(text).toContain('"echo:one"');
			expect(text).toContain("no forbidden words");
			expect(result?.nestedCalls?.calls.map((call) => `${call.id}:${call.status}`)).toEqual(["cm/1:ok", "cm/2:error"]);
			expect(echo.calls).toEqual(["one"]);
			await session.dispose();
		}));

	it("mode only hides active direct tools' declarations so they are reached through scripts", () =>
		withTempDir(async (cwd) => {
			const direct = echoTool("direct_echo");
			const model = createFauxModel([
				{
					toolCalls: [
						{ name: "codemode", arguments: { code: 'return await tools.direct_echo({ text: "via script" });' } },
					],
				},
				{ text: "ok" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				noTools: "builtin",
				tools: ["*", "codemode"],
				customTools: [direct.definition],
				codemode: { mode: "only" },
			});
			expect(session.getActiveToolNames()).toEqual(["codemode", "direct_echo"]);
			expect(session.getDeclaredTools().map((tool) => tool.name)).toEqual(["codemode"]);
			await session.prompt("go");
			expect(declaredNames(model.calls[0])).toEqual(["codemode"]);
			expect(textOf(toolResults(session.messages)[0])).toContain("via script");
			await session.dispose();
		}));

	it("answers a call to codemode while it is inactive as an unknown tool", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([
				{ toolCalls: [{ name: "codemode", arguments: { code: "return 1" } }] },
				{ text: "ok" },
			]);
			const session = await createAgentSession({ cwd, model, noTools: "builtin" });
			await session.prompt("go");
			const [result] = toolResults(session.messages);
			expect(result?.isError).toBe(true);
			expect(textOf(result)).toBe("Tool codemode not found");
			await session.dispose();
		}));
});
