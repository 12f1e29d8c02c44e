import { Type } from "@sinclair/typebox";
import { describe, expect, test } from "vitest";
import { rankTools, type SearchableTool, tokenize } from "../../src/tool-search/index.js";

describe("tokenize", () => {
	test("splits camelCase, snake_case, kebab-case and punctuation, lowercases and folds plurals", () => {
		expect(tokenize("readFile")).toEqual(["read", "file"]);
		expect(tokenize("list_open-pull_requests")).toEqual(["list", "open", "pull", "request"]);
		expect(tokenize("HTTPServer v2")).toEqual(["http", "server", "v", "2"]);
		expect(tokenize("Searches issues, entries & classes!")).toEqual(["search", "issue", "entry", "class"]);
	});
});

const tools: SearchableTool[] = [
	{
		name: "github_create_issue",
		description: "Open a new issue in a repository.",
		parameters: Type.Object({ repo: Type.String(), title: Type.String(), body: Type.String() }),
		namespace: { name: "github", description: "GitHub API" },
	},
	{
		name: "github_list_pull_requests",
		description: "List the pull requests of a repository.",
		parameters: Type.Object({
			repo: Type.String(),
			state: Type.Optional(Type.String({ description: "open or closed" })),
		}),
		namespace: { name: "github", description: "GitHub API" },
	},
	{
		name: "slack_post",
		description: "Post a message to a channel.",
		parameters: Type.Object({
			channel: Type.String({ description: "Channel name, like #general" }),
			text: Type.String(),
		}),
		namespace: { name: "slack", aliases: ["chat"] },
	},
	{
		name: "weather",
		description: "Current weather for a city; mentions issue tracking nowhere.",
		parameters: Type.Object({ city: Type.String() }),
	},
	{
		name: "issue",
		description: "Look up one ticket by number.",
		parameters: Type.Object({ number: Type.Number() }),
	},
];

const names = (found: SearchableTool[]) => found.map((tool) => tool.name);

describe("rankTools", () => {
	test("an exact name match comes first, whatever the scores", () => {
		expect(names(rankTools(tools, "issue", 3))[0]).toBe("issue");
		expect(names(rankTools(tools, "  WEATHER ", 3))[0]).toBe("weather");
	});

	test("name words outweigh description words", () => {
		expect(names(rankTools(tools, "create issue", 2))).toEqual(["github_create_issue", "issue"]);
	});

	test("camelCase queries meet snake_case names", () => {
		expect(names(rankTools(tools, "pullRequests", 5))).toEqual(["github_list_pull_requests"]);
	});

	test("parameter names and descriptions count", () => {
		expect(names(rankTools(tools, "city", 5))).toEqual(["weather"]);
		expect(names(rankTools(tools, "general channel", 5))).toEqual(["slack_post"]);
	});

	test("the namespace counts, aliases included", () => {
		expect(names(rankTools(tools, "github", 5)).sort()).toEqual(["github_create_issue", "github_list_pull_requests"]);
		expect(names(rankTools(tools, "chat", 5))).toEqual(["slack_post"]);
	});

	test("honours the limit and finds nothing for unrelated words", () => {
		expect(rankTools(tools, "repository issue pull", 1)).toHaveLength(1);
		expect(rankTools(tools, "kubernetes", 5)).toEqual([]);
		expect(rankTools([], "anything", 5)).toEqual([]);
	});
});
