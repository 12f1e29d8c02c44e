import { describe, expect, it } from "vitest";
import { createFauxModel } from "../../src/index.js";
import { lazyProvider } from "../../src/providers/lazy.js";

const model = createFauxModel([{ text: "loaded" }]);
const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 1 }] };

describe("lazyProvider", () => {
	it("loads the provider on first use and forwards its events", async () => {
		const { streamFaux } = await import("../../src/faux.js");
		let loads = 0;
		const provider = lazyProvider(async () => {
			loads++;
			return streamFaux;
		});
		expect(loads).toBe(0);
		expect(await provider(model, context).result()).toMatchObject({ content: [{ type: "text", text: "loaded" }] });
		await provider(model, context).result();
		expect(loads).toBe(1);
	});

	it("ends with an error when the module cannot be loaded", async () => {
		const provider = lazyProvider(() => Promise.reject(new Error("Cannot find package 'openai'")));
		expect(await provider(model, context).result()).toMatchObject({
			stopReason: "error",
			errorMessage: expect.stringContaining("Cannot find package 'openai'"),
		});
	});

	it("names the SDK package to install when it is missing", async () => {
		const missing = "gantry-test-missing-sdk";
		const provider = lazyProvider(async () => (await import(/* @vite-ignore */ missing)).stream, missing);
		const message = await provider(model, context).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(
			`The faux provider needs the "${missing}" package, which is not installed: add it to your project (npm install ${missing})`,
		);
	});

	it("ends with an error when the loaded provider throws instead of streaming", async () => {
		const provider = lazyProvider(async () => () => {
			throw new Error("provider bug");
		});
		expect(await provider(model, context).result()).toMatchObject({
			stopReason: "error",
			errorMessage: "provider bug",
		});
	});
});
