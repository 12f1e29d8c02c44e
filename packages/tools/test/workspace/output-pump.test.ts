import { describe, expect, it } from "vitest";
import { createOutputPump } from "../../src/index.js";

function streams() {
	const log: string[] = [];
	return {
		log,
		options: {
			pause: () => log.push("pause"),
			resume: () => log.push("resume"),
			stop: () => log.push("stop"),
			drainMs: 20,
		},
	};
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("createOutputPump", () => {
	it("pauses every stream while a consumer's promise is pending, and only for a promise", async () => {
		const { log, options } = streams();
		const pump = createOutputPump(options);
		let release = () => {};
		const seen: string[] = [];
		pump.deliver((chunk) => {
			seen.push(chunk.toString());
			return new Promise<void>((resolve) => {
				release = resolve;
			});
		}, Buffer.from("a"));
		// A consumer that returns a number (plain JavaScript) does not pause anything, nor throw.
		pump.deliver(((chunk: Buffer) => seen.push(chunk.toString())) as never, Buffer.from("b"));
		expect(log).toEqual(["pause"]);
		release();
		await sleep(0);
		expect(log).toEqual(["pause", "resume"]);
		expect(seen).toEqual(["a", "b"]);
		pump.dispose();
	});

	it("after the exit, reads on while output keeps coming, then stops once", async () => {
		const { log, options } = streams();
		const pump = createOutputPump(options);
		pump.exited();
		for (let index = 0; index < 3; index++) {
			await sleep(10);
			pump.deliver(undefined, Buffer.from("late"));
		}
		expect(log).toEqual([]);
		await sleep(80);
		expect(log).toEqual(["stop"]);
	});

	it("does not stop while a consumer is still busy after the exit; stops once it is done and all is quiet", async () => {
		const { log, options } = streams();
		const pump = createOutputPump(options);
		let release = () => {};
		pump.deliver(
			() =>
				new Promise<void>((resolve) => {
					release = resolve;
				}),
			Buffer.from("x"),
		);
		pump.exited();
		await sleep(100);
		expect(log).toEqual(["pause"]);
		release();
		await sleep(80);
		expect(log).toEqual(["pause", "resume", "stop"]);
	});
});
