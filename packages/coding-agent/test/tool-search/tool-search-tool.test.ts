import { Type } from "@sinclair/typebox";
import { describe, expect, test } from "vitest";
import { createToolSearchToolDefinition, type ToolSearchCandidate } from "../../src/tool-search/index.js";

function setup(candidates: ToolSearchCandidate[]) {
	const active: string[] = [];
	const tool = createToolSearchToolDefinition({
		getCandidates: () => candidates.filter((candidate) => !active.includes(candidate.name)),
		activate: (names) => active.push(...names),
	});
	const search = (query: string, limit?: number) =>
		tool.execute(
			"call_1",
			limit === undefined ? { query } : { query, limit },
			undefined,
			undefined,
			undefined as never,
		);
	return { tool, active, search };
}

const candidates: ToolSearchCandidate[] = [
	{
		name: "jira_search",
		description: "Search Jira tickets.\nSupports JQL.",
		parameters: Type.Object({ jql: Type.String() }),
	},
	{ name: "jira_create", description: "Create a Jira ticket.", parameters: Type.Object({ summary: Type.String() }) },
	{
		name: "pdf_extract",
		description: "Extract text from a PDF file.",
		parameters: Type.Object({ path: Type.String() }),
	},
];

describe("tool_search", () => {
	test("is model-only, inactive until named, and takes { query, limit? }", () => {
		const { tool } = setup([]);
		expect(tool.name).toBe("tool_search");
		expect(tool.exposure).toBe("model-only");
		expect(tool.defaultActive).toBe(false);
		expect(Object.keys(tool.parameters.properties)).toEqual(["query", "limit"]);
		expect(tool.parameters.required).toEqual(["query"]);
	});

	test("loads the matches, best first, and lists them one line each", async () => {
		const { search, active } = setup(candidates);
		const result = await search("jira ticket");
		expect(active).toEqual(["jira_create", "jira_search"]);
		expect(result.details).toEqual({ loaded: ["jira_create", "jira_search"] });
		const [block] = result.content;
		const text = block?.type === "text" ? block.text : "";
		expect(text.split("\n")).toEqual([
			"Loaded 2 tool(s):",
			"- jira_create — Create a Jira ticket.",
			"- jira_search — Search Jira tickets.",
			"They can be called from your next step.",
		]);
		expect(result.isError).toBeUndefined();
	});

	test("an exact name loads that tool first; the limit caps the count (default 8)", async () => {
		const { search, active } = setup(candidates);
		await search("jira_create", 1);
		expect(active).toEqual(["jira_create"]);
		const many = setup(
			Array.from({ length: 12 }, (_, index) => ({ name: `report_${index}`, description: "Make a report." })),
		);
		await many.search("report");
		expect(many.active).toHaveLength(8);
	});

	test("already active tools are not candidates any more", async () => {
		const { search, active } = setup(candidates);
		await search("pdf");
		const again = await search("pdf");
		expect(active).toEqual(["pdf_extract"]);
		expect(again.content).toEqual([{ type: "text", text: "No matching tools found." }]);
	});

	test("no match is a normal result, not an error", async () => {
		const { search, active } = setup(candidates);
		const result = await search("weather forecast");
		expect(result.content).toEqual([{ type: "text", text: "No matching tools found." }]);
		expect(result.isError).toBeUndefined();
		expect(active).toEqual([]);
	});

	test("an empty query or a limit that is not a positive integer is an error", async () => {
		const { search, active } = setup(candidates);
		await expect(search("   ")).rejects.toThrow(/non-empty query/);
		for (const limit of [0, -1, 1.5, Number.NaN]) {
			await expect(search("jira", limit)).rejects.toThrow(/positive integer/);
		}
		expect(active).toEqual([]);
	});
});
