import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { OPTIONS } from "../src/args.js";
import { helpText } from "../src/help.js";

const README = readFileSync(new URL("../README.md", import.meta.url), "utf8");

/** The flags named in the first column of the README's options table. */
function readmeTableFlags(): Set<string> {
	const section = README.slice(README.indexOf("### Options\n"));
	const table = section.slice(0, section.indexOf("\n\n", section.indexOf("| option")));
	const flags = new Set<string>();
	for (const row of table.split("\n").slice(3)) {
		const first = row.split(/(?<!\\)\|/)[1] ?? "";
		for (const match of first.matchAll(/(?<![\w-])--?[a-z][a-z-]*/g)) flags.add(match[0]);
	}
	return flags;
}

describe("the docs match the command", () => {
	const flags = (option: (typeof OPTIONS)[number]) => [
		`--${option.name}`,
		...(option.short ? [`-${option.short}`] : []),
	];

	it("lists every option of args.ts in the README's options table, and no other", () => {
		const table = readmeTableFlags();
		const known = OPTIONS.flatMap(flags);
		expect(known.filter((flag) => !table.has(flag))).toEqual([]);
		expect([...table].filter((flag) => !known.includes(flag))).toEqual([]);
	});

	it("names every option in gantry --help", () => {
		const help = helpText("0.0.0");
		expect(OPTIONS.flatMap(flags).filter((flag) => !new RegExp(`(?<![\\w-])${flag}(?![\\w-])`).test(help))).toEqual([]);
	});
});
