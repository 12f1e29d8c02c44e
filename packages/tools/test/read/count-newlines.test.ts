import { describe, expect, it } from "vitest";
import { NewlineCounter } from "../../src/read/count-newlines.js";
import { itemAt } from "../helpers/item-at.js";

function reference(bytes: Buffer, start: number, end: number): number {
	let count = 0;
	for (let index = start; index < end; index++) if (bytes[index] === 0x0a) count++;
	return count;
}

describe("NewlineCounter", () => {
	it("counts exactly for short and long lines, any alignment and every byte value", () => {
		let state = 9;
		const random = () => {
			state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
			return state / 0x1_0000_0000;
		};
		for (const newlineRate of [0.5, 0.1, 0.01]) {
			const counter = new NewlineCounter();
			for (let round = 0; round < 300; round++) {
				const backing = Buffer.alloc(200);
				// Bytes next to 0x0a (0x0b, 0x09, 0x8a) are where word tricks go wrong; use them often.
				const values = [0x0b, 0x09, 0x8a, 0x00, 0xff, 0x0a ^ 0x80, 0x61];
				for (let index = 0; index < backing.length; index++)
					backing[index] = random() < newlineRate ? 0x0a : itemAt(values, Math.floor(random() * values.length));
				const view = backing.subarray(Math.floor(random() * 8));
				const start = Math.floor(random() * view.length);
				const end = start + Math.floor(random() * (view.length - start + 1));
				expect(counter.count(view, start, end)).toBe(reference(view, start, end));
			}
		}
	});
});
