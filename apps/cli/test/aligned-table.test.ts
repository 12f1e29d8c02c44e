import { describe, expect, it } from "vitest";
import { alignedTable } from "../src/aligned-table.js";
import { visibleWidth } from "../src/tui/ansi.js";

describe("alignedTable", () => {
	it("pads every cell but a row's last to its column's widest cell, two spaces apart", () => {
		const table = alignedTable(
			["ID", "NAME", "NOTE"],
			[
				["1", "alpha", "first"],
				["22", "b", ""],
			],
			(text) => text.length,
		);
		expect(table).toEqual({ header: "ID  NAME   NOTE", rows: ["1   alpha  first", "22  b      "] });
	});

	it("measures cells with the width it is given, so colour codes take no room", () => {
		const green = (text: string) => `\x1b[32m${text}\x1b[39m`;
		const table = alignedTable(["A", "B"], [[green("yes"), "x"]], visibleWidth);
		expect(table.header).toBe("A    B");
		expect(table.rows).toEqual([`${green("yes")}  x`]);
	});
});
