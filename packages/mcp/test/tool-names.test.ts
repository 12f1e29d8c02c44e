import { describe, expect, test } from "vitest";
import { mcpServerNameParts, mcpToolNames } from "../src/index.js";

describe("mcpToolNames", () => {
	test("mcp__<server>__<tool>, sanitised to [A-Za-z0-9_-]", () => {
		const names = mcpToolNames("github", ["create_issue", "search.code", "get-file"]);
		expect(Object.fromEntries(names)).toEqual({
			create_issue: "mcp__github__create_issue",
			"get-file": "mcp__github__get-file",
			"search.code": "mcp__github__search_code",
		});
	});

	test("at most 64 characters; long names stay distinct", () => {
		const long = "a".repeat(80);
		const names = mcpToolNames("server", [`${long}1`, `${long}2`]);
		const values = [...names.values()];
		for (const name of values) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
		expect(new Set(values).size).toBe(2);
	});

	test("collisions after sanitising resolve the same way whatever the listing order", () => {
		const one = mcpToolNames("s", ["a.b", "a_b", "a b"]);
		const two = mcpToolNames("s", ["a b", "a_b", "a.b"]);
		expect(one).toEqual(two);
		expect(one.get("a_b")).toBe("mcp__s__a_b");
		expect(new Set(one.values()).size).toBe(3);
		for (const name of one.values()) expect(name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
	});

	test("server names that sanitise alike get distinct prefixes", () => {
		const parts = mcpServerNameParts(["my.server", "my_server"]);
		expect(parts.get("my_server")).toBe("my_server");
		expect(parts.get("my.server")).not.toBe("my_server");
		expect(parts.get("my.server")).toMatch(/^my_server_[a-z0-9]+$/);
	});
});
