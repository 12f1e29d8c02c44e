import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { type Context, complete, type Model, type Tool, type ToolCall } from "../src/index.js";

const weather: Tool = {
	name: "get_weather",
	description: "Current weather for a city",
	parameters: Type.Object({
		city: Type.String(),
		unit: Type.Optional(Type.Union([Type.Literal("C"), Type.Literal("F")])),
	}),
	constrainedSampling: { type: "json_schema", strict: "prefer" },
};

/**
 * The real-provider checks every provider must pass: a streamed text answer with usage, and a tool call
 * whose result the model then uses. Skipped unless `keyVariable` is set; runs only under `pnpm test:e2e`.
 */
export function describeRealProvider(name: string, keyVariable: string, model: () => Model): void {
	describe.skipIf(!process.env[keyVariable])(`${name} against the real API`, () => {
		it("streams a short text answer with usage", async () => {
			const message = await complete(model(), {
				systemPrompt: "Answer with one word.",
				messages: [{ role: "user", content: "Reply with the word pong.", timestamp: Date.now() }],
			});
			expect(message.stopReason).toBe("stop");
			expect(JSON.stringify(message.content).toLowerCase()).toContain("pong");
			expect(message.usage.input).toBeGreaterThan(0);
			expect(message.usage.output).toBeGreaterThan(0);
		});

		it("calls a tool and uses its result", async () => {
			const context: Context = {
				tools: [weather],
				messages: [{ role: "user", content: "What is the weather in Paris? Use the tool.", timestamp: Date.now() }],
			};
			const first = await complete(model(), context);
			expect(first.stopReason).toBe("toolUse");
			const call = first.content.find((block): block is ToolCall => block.type === "toolCall");
			expect(call?.name).toBe("get_weather");
			expect(String(call?.arguments.city)).toMatch(/paris/i);
			context.messages.push(first, {
				role: "toolResult",
				toolCallId: call?.id ?? "",
				toolName: "get_weather",
				content: [{ type: "text", text: "Sunny, 21 degrees C" }],
				isError: false,
				timestamp: Date.now(),
			});
			const second = await complete(model(), context);
			expect(second.stopReason).toBe("stop");
			expect(JSON.stringify(second.content)).toMatch(/21/);
		});
	});
}
