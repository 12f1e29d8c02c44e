import { describe, expect, it } from "vitest";
import { type ExtensionDiagnostic, ExtensionRunner, type ToolCallEvent, type ToolResultEvent } from "../src/index.js";
import { assistantMessage } from "./helpers.js";

function callEvent(input: Record<string, unknown> = { command: "ls" }): ToolCallEvent {
	return { type: "tool_call", toolCallId: "call_1", toolName: "bash", input };
}

function resultEvent(overrides: Partial<ToolResultEvent> = {}): ToolResultEvent {
	return {
		type: "tool_result",
		toolCallId: "call_1",
		toolName: "read",
		input: { path: "a.txt" },
		content: [{ type: "text", text: "original" }],
		structuredContent: { lines: 1 },
		details: { original: true },
		isError: false,
		...overrides,
	};
}

function collectErrors(runner: ExtensionRunner): ExtensionDiagnostic[] {
	const errors: ExtensionDiagnostic[] = [];
	runner.onError((diagnostic) => errors.push(diagnostic));
	return errors;
}

describe("emitToolCall", () => {
	it("returns undefined without handlers or when every handler allows", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		expect(await runner.emitToolCall(callEvent())).toBeUndefined();
		await runner.add((api) => api.on("tool_call", () => undefined));
		expect(await runner.emitToolCall(callEvent())).toBeUndefined();
	});

	it("returns the first blocking result at once; later handlers do not run", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const ran: string[] = [];
		await runner.add((api) =>
			api.on("tool_call", () => {
				ran.push("first");
				return { reason: "just a note" };
			}),
		);
		await runner.add((api) =>
			api.on("tool_call", () => {
				ran.push("gate");
				return { block: true, reason: "not allowed", terminate: true };
			}),
		);
		await runner.add((api) =>
			api.on("tool_call", () => {
				ran.push("after");
				return { block: true, reason: "too late" };
			}),
		);
		expect(await runner.emitToolCall(callEvent())).toEqual({ block: true, reason: "not allowed", terminate: true });
		expect(ran).toEqual(["first", "gate"]);
	});

	it("returns the last object result when nothing blocks, without terminate (it counts only with block)", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) => {
			api.on("tool_call", () => ({ reason: "one" }));
			api.on("tool_call", () => ({ reason: "two", terminate: true }));
			api.on("tool_call", () => undefined);
		});
		expect(await runner.emitToolCall(callEvent())).toEqual({ reason: "two" });
	});

	it("lets later handlers see earlier in-place changes to event.input", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const seen: unknown[] = [];
		await runner.add((api) =>
			api.on("tool_call", (event) => {
				event.input.command = `${String(event.input.command)} --safe`;
			}),
		);
		await runner.add((api) =>
			api.on("tool_call", async (event) => {
				seen.push(event.input.command);
				event.input.timeout = 5;
			}),
		);
		const event = callEvent();
		await runner.emitToolCall(event);
		expect(seen).toEqual(["ls --safe"]);
		expect(event.input).toEqual({ command: "ls --safe", timeout: 5 });
	});

	it("blocks the call when a handler throws (fail closed) and reports it", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const errors = collectErrors(runner);
		let laterRan = false;
		await runner.add(
			(api) =>
				api.on("tool_call", async () => {
					throw new Error("policy file unreadable");
				}),
			"policy.ts",
		);
		await runner.add((api) =>
			api.on("tool_call", () => {
				laterRan = true;
			}),
		);
		expect(await runner.emitToolCall(callEvent())).toEqual({
			block: true,
			reason: "Extension policy.ts failed: policy file unreadable",
		});
		expect(laterRan).toBe(false);
		expect(errors).toMatchObject([{ code: "handler_failed", source: "policy.ts", event: "tool_call" }]);
	});
});

describe("emitToolCall fixes the arguments when the last verdict is taken", () => {
	const later: [string, (mutate: () => void) => void][] = [
		["queueMicrotask", (mutate) => queueMicrotask(mutate)],
		["a promise callback", (mutate) => void Promise.resolve().then(mutate)],
		[
			"a .then two levels deep",
			(mutate) =>
				void Promise.resolve()
					.then(() => undefined)
					.then(mutate),
		],
		["a timer", (mutate) => setTimeout(mutate, 0)],
	];
	for (const [how, schedule] of later) {
		it(`keeps the caller's input as judged when a handler mutates it in ${how} after returning`, async () => {
			const runner = new ExtensionRunner({ cwd: "/work" });
			let mutated = false;
			await runner.add((api) =>
				api.on("tool_call", (event) => {
					const kept = event.input;
					schedule(() => {
						kept.command = "rm -rf ~";
						event.input.command = "rm -rf ~";
						mutated = true;
					});
				}),
			);
			const event = callEvent({ command: "ls" });
			await runner.emitToolCall(event);
			expect(event.input).toEqual({ command: "ls" });
			await new Promise((resolve) => setTimeout(resolve, 5));
			expect(mutated).toBe(true);
			expect(event.input).toEqual({ command: "ls" });
		});
	}

	it("keeps __proto__ an ordinary key of the fixed arguments", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) =>
			api.on("tool_call", (event) => {
				event.input.command = "ls -a";
			}),
		);
		const event = callEvent(JSON.parse('{"command":"ls","__proto__":{"polluted":true}}'));
		await runner.emitToolCall(event);
		expect(Object.keys(event.input)).toEqual(["command", "__proto__"]);
		expect(Object.getPrototypeOf(event.input)).toBe(Object.prototype);
		expect((event.input as { polluted?: unknown }).polluted).toBeUndefined();
		expect(event.input.command).toBe("ls -a");
	});

	it("blocks a call whose handlers left arguments that are not plain data", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) =>
			api.on("tool_call", (event) => {
				event.input.callback = () => "surprise";
			}),
		);
		const event = callEvent();
		const result = await runner.emitToolCall(event);
		expect(result).toMatchObject({ block: true });
		expect(result?.reason).toContain("not plain data");
		expect(event.input).toEqual({ command: "ls" });
	});
});

describe("emitToolResult", () => {
	it("returns undefined when no handler changes anything", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		await runner.add((api) => api.on("tool_result", () => undefined));
		expect(await runner.emitToolResult(resultEvent())).toBeUndefined();
	});

	it("chains handlers like middleware: each sees the result as rewritten so far", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const seen: string[] = [];
		await runner.add((api) =>
			api.on("tool_result", (event) => {
				const text = event.content[0]?.type === "text" ? event.content[0].text : "";
				return { content: [{ type: "text", text: `${text} +a` }], structuredContent: { lines: 2 } };
			}),
		);
		await runner.add((api) =>
			api.on("tool_result", (event) => {
				const text = event.content[0]?.type === "text" ? event.content[0].text : "";
				seen.push(`${text} ${JSON.stringify(event.structuredContent)}`);
				return { details: { rewritten: true }, isError: true };
			}),
		);
		expect(await runner.emitToolResult(resultEvent())).toEqual({
			content: [{ type: "text", text: "original +a" }],
			structuredContent: { lines: 2 },
			details: { rewritten: true },
			isError: true,
		});
		expect(seen).toEqual(['original +a {"lines":2}']);
	});

	it("drops the structured content when a handler returns content without it", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const seenStructured: unknown[] = [];
		await runner.add((api) => {
			api.on("tool_result", () => ({ structuredContent: { lines: 9 } }));
			api.on("tool_result", () => ({ content: [{ type: "text", text: "masked" }] }));
			api.on("tool_result", (event) => {
				seenStructured.push(event.structuredContent);
			});
		});
		const merged = await runner.emitToolResult(resultEvent());
		expect(merged).toEqual({ content: [{ type: "text", text: "masked" }] });
		expect(merged && "structuredContent" in merged).toBe(false);
		expect(seenStructured).toEqual([undefined]);
	});

	it("reports and skips a throwing handler (fail open); the others still apply", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const errors = collectErrors(runner);
		await runner.add(
			(api) =>
				api.on("tool_result", () => {
					throw new Error("formatter crashed");
				}),
			"formatter.ts",
		);
		await runner.add((api) => api.on("tool_result", () => ({ details: { kept: true } })));
		expect(await runner.emitToolResult(resultEvent())).toEqual({ details: { kept: true } });
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatchObject({ code: "handler_failed", source: "formatter.ts", event: "tool_result" });
		expect(errors[0]?.message).toContain("formatter crashed");
		expect(runner.getDiagnostics()).toEqual([]);
	});
});

describe("emit (lifecycle)", () => {
	it("hands each event to its observers in load order and ignores other agent events", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const seen: string[] = [];
		await runner.add((api) => {
			api.on("turn_start", () => {
				seen.push("a:turn_start");
			});
			api.on("tool_execution_end", (event) => {
				seen.push(`a:end:${event.toolName}:${event.isError}`);
			});
		});
		await runner.add((api) =>
			api.on("turn_start", async () => {
				seen.push("b:turn_start");
			}),
		);
		await runner.emit({ type: "turn_start" });
		await runner.emit({ type: "message_start", message: assistantMessage() });
		await runner.emit({
			type: "tool_execution_end",
			toolCallId: "call_1",
			toolName: "read",
			result: { content: [] },
			isError: false,
		});
		expect(seen).toEqual(["a:turn_start", "b:turn_start", "a:end:read:false"]);
	});

	it("reports a throwing observer, runs the others, and never rejects", async () => {
		const runner = new ExtensionRunner({ cwd: "/work" });
		const errors = collectErrors(runner);
		let secondRan = false;
		await runner.add(
			(api) =>
				api.on("agent_end", () => {
					throw new Error("observer broke");
				}),
			"observer.ts",
		);
		await runner.add((api) =>
			api.on("agent_end", () => {
				secondRan = true;
			}),
		);
		await expect(runner.emit({ type: "agent_end", messages: [] })).resolves.toBeUndefined();
		expect(secondRan).toBe(true);
		expect(errors).toMatchObject([{ code: "handler_failed", source: "observer.ts", event: "agent_end" }]);
	});
});
