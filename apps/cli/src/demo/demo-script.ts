import type { Context, FauxTurnSource, ToolResultMessage } from "@gantry/ai";

/** What the demo's person asks. */
export const DEMO_PROMPT = "The cart total is wrong and `node --test` fails. Find the bug and fix it.";

/** The tool results the model received since its last message, by tool name. */
function latestResults(context: Context): ToolResultMessage[] {
	const results: ToolResultMessage[] = [];
	for (const message of context.messages.toReversed()) {
		if (message.role !== "toolResult") break;
		results.unshift(message);
	}
	return results;
}

function resultText(result: ToolResultMessage | undefined): string {
	return (result?.content ?? []).map((block) => (block.type === "text" ? block.text : "")).join("\n");
}

/** A count from `node --test`'s summary (`# pass 7`), or undefined. */
function testCount(output: string, label: "pass" | "fail" | "tests"): number | undefined {
	const match = new RegExp(`^[#ℹ] ${label} (\\d+)`, "m").exec(output);
	return match ? Number(match[1]) : undefined;
}

/**
 * The scripted model of `gantry --demo`. The turns read what the tools really returned (the turns are
 * functions of the context), so the story follows the real files: look around in one parallel batch,
 * read the source, fix the off-by-one with `edit`, run the tests, double-check with a tool that makes
 * nested calls, try to delete the stale build folder (blocked by the permission policy), and sum up.
 */
export function createDemoTurns(): FauxTurnSource[] {
	return [
		{
			thinking:
				"Cart totals are wrong. First the layout, the JavaScript files and every use of cartTotal, all at once.",
			text: "Let me look around the project first.",
			toolCalls: [
				{ name: "ls", arguments: { path: "." } },
				{ name: "find", arguments: { pattern: "**/*.js" } },
				{ name: "grep", arguments: { pattern: "cartTotal" } },
			],
		},
		(context) => {
			const grep = resultText(latestResults(context).find((result) => result.toolName === "grep"));
			const definedIn = /^(src\/[\w./-]+\.js):\d+:\s*export function cartTotal/m.exec(grep)?.[1] ?? "src/cart.js";
			return {
				text: `\`cartTotal\` is defined in ${definedIn} and tested in test/cart.test.js. Reading the source:`,
				toolCalls: [{ name: "read", arguments: { path: definedIn } }],
			};
		},
		(context) => {
			const source = resultText(latestResults(context)[0]);
			const buggy = /for \(let index = 1; index < items\.length; index\+\+\)/.exec(source)?.[0];
			if (buggy === undefined) return { text: "The loop in cartTotal looks right to me; I could not find the bug." };
			return {
				text: "Found it: the loop starts at index 1, so the first item of every cart is never counted. Starting it at 0:",
				toolCalls: [
					{
						name: "edit",
						arguments: { path: "src/cart.js", edits: [{ oldText: buggy, newText: buggy.replace("= 1;", "= 0;") }] },
					},
				],
			};
		},
		{ text: "Now the tests:", toolCalls: [{ name: "bash", arguments: { command: "node --test" } }] },
		(context) => {
			const output = resultText(latestResults(context)[0]);
			const pass = testCount(output, "pass");
			const fail = testCount(output, "fail");
			const verdict =
				fail === 0 && pass !== undefined ? `All ${pass} tests pass.` : `The tests still fail (${fail ?? "?"} failing).`;
			return {
				text: `${verdict} A second look before I finish: does any other loop in src/ start at 1, and what do the tests cover?`,
				toolCalls: [
					{
						name: "inspect",
						arguments: { searches: [{ pattern: "index = 1", path: "src" }], reads: ["test/cart.test.js"] },
					},
				],
			};
		},
		{
			text: "No other loop starts at 1. build/bundle.js still holds the old, broken code, so I'll remove the stale build folder.",
			toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" } }],
		},
		(context) => {
			const removal = latestResults(context)[0];
			const tests = context.messages.filter(
				(message): message is ToolResultMessage => message.role === "toolResult" && message.toolName === "bash",
			)[0];
			const pass = testCount(resultText(tests), "pass");
			const total = testCount(resultText(tests), "tests");
			const testLine =
				pass !== undefined && total !== undefined ? ` \`node --test\` now passes (${pass} of ${total}).` : "";
			const buildLine = removal?.isError
				? `I did not delete build/: the permission policy blocked \`rm -rf build\` because nobody was there to approve it. It still holds the stale bundle; remove it yourself, or rerun with --yes.`
				: "I also removed the stale build/ folder.";
			return {
				text: `Fixed. \`cartTotal\` in src/cart.js started its loop at index 1, so the first item of every cart was skipped; it now starts at 0.${testLine}\n\n${buildLine}`,
			};
		},
	];
}
