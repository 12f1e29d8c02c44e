import { completeUsage } from "@gantry/ai";
import { describe, expect, it } from "vitest";
import { NESTED_CALL_LIMITS } from "../../src/index.js";
import { NestedCallBook } from "../../src/session/nested-records.js";

describe("nested call records", () => {
	it("keeps at most 256 records and marks the book incomplete past that", () => {
		const book = new NestedCallBook();
		for (let index = 1; index <= NESTED_CALL_LIMITS.maxCalls + 5; index++) {
			book.finish(book.start(`top/${index}`, "echo", { n: index }), {
				isError: false,
				usage: completeUsage({ input: 1 }),
			});
		}
		const nested = book.toNestedToolCalls();
		expect(nested.calls).toHaveLength(256);
		expect(nested.complete).toBe(false);
		// usage still counts every call, recorded or not
		expect(book.usage?.input).toBe(261);
	});

	it("keeps big arguments as their size only, per call and in total", () => {
		const book = new NestedCallBook();
		const big = { text: "x".repeat(9 * 1024) };
		const record = book.start("top/1", "echo", big);
		expect(record?.arguments).toBeUndefined();
		expect(record?.argumentsBytes).toBe(Buffer.byteLength(JSON.stringify(big)));
		const medium = { text: "y".repeat(7 * 1024) };
		const kept = [2, 3, 4, 5, 6].map((index) => book.start(`top/${index}`, "echo", medium));
		expect(kept.slice(0, 4).every((entry) => entry?.arguments !== undefined)).toBe(true);
		// the fifth would pass 32 KiB in total
		expect(kept[4]?.arguments).toBeUndefined();
		expect(kept[4]?.argumentsBytes).toBeGreaterThan(7 * 1024);
		expect(book.complete).toBe(false);
	});

	it("cuts error texts to 500 characters and records status and duration", () => {
		const book = new NestedCallBook();
		const failed = book.start("top/1", "echo", {});
		book.finish(failed, { isError: true, durationMs: 3, errorText: "e".repeat(800) });
		const unfinished = book.start("top/2", "echo", {});
		const [first, second] = book.toNestedToolCalls().calls;
		expect(first).toMatchObject({ status: "error", durationMs: 3 });
		expect(first?.error).toHaveLength(500);
		expect(second?.status).toBe("unfinished");
		expect(unfinished?.id).toBe("top/2");
		expect(book.complete).toBe(true);
	});
});
