import { createFauxModel } from "@gantry/ai";
import type { ExtensionUI } from "@gantry/extensions";
import { type AgentSessionOptions, createAgentSession } from "../../src/index.js";
import { textOf, toolResults } from "../session/helpers.js";

/** A tool call as the faux model sends it. */
export type Call = { name: string; arguments: Record<string, unknown> };

/** Every builtin the permission tests call, active. */
export const ALL_BUILTINS = ["read", "bash", "edit", "write", "grep", "find", "ls"];

/** A UI that answers each question with the next answer, and keeps the questions. */
export function scriptedUI(
	answers: (string | undefined)[],
): ExtensionUI & { asked: { title: string; options: string[] }[] } {
	const asked: { title: string; options: string[] }[] = [];
	return {
		asked,
		confirm: async () => false,
		select: async (title, options) => {
			asked.push({ title, options });
			return answers.shift();
		},
		notify: () => {},
	};
}

/**
 * Runs `calls` (one turn each, in order) in a session made from `options` with every builtin active, and
 * returns each result: whether it failed and its text.
 */
export async function callResults(
	options: Omit<AgentSessionOptions, "model">,
	calls: Call[],
): Promise<{ isError: boolean; text: string }[]> {
	const model = createFauxModel([...calls.map((call) => ({ toolCalls: [call] })), { text: "done" }]);
	const session = await createAgentSession({ tools: ALL_BUILTINS, ...options, model });
	try {
		await session.prompt("go");
		return toolResults(session.messages).map((result) => ({ isError: result.isError, text: textOf(result) }));
	} finally {
		await session.dispose();
	}
}

/** Per call, "ran" or the error text it got (see `callResults`). */
export async function runCalls(options: Omit<AgentSessionOptions, "model">, calls: Call[]): Promise<string[]> {
	return (await callResults(options, calls)).map((result) => (result.isError ? result.text : "ran"));
}
