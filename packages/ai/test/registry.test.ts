import { afterEach, describe, expect, it } from "vitest";
import {
	type Context,
	complete,
	createAssistantMessage,
	createAssistantMessageEventStream,
	createFauxModel,
	type Model,
	registerProvider,
	stream,
	unregisterProvider,
} from "../src/index.js";

const context: Context = { messages: [{ role: "user", content: "hi", timestamp: 1 }] };
const customModel: Model = { ...createFauxModel([]), api: "echo", provider: "echo", id: "echo-1" };

afterEach(() => {
	unregisterProvider("echo");
});

describe("provider registry", () => {
	it("dispatches on model.api to a registered provider", async () => {
		registerProvider("echo", (model, request) => {
			const events = createAssistantMessageEventStream();
			const message = createAssistantMessage(model);
			const last = request.messages.at(-1);
			message.content = [{ type: "text", text: `echo: ${last?.role === "user" ? String(last.content) : ""}` }];
			events.push({ type: "start", partial: message });
			events.push({ type: "done", reason: "stop", message });
			return events;
		});
		expect(await complete(customModel, context)).toMatchObject({
			api: "echo",
			model: "echo-1",
			content: [{ type: "text", text: "echo: hi" }],
		});
	});

	it("ends the stream with an error for an unknown api, naming the registered ones", async () => {
		const message = await complete(customModel, context);
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/No provider registered for api "echo".*openai-completions/);
	});

	it("turns a provider that throws into an error message", async () => {
		registerProvider("echo", () => {
			throw new Error("provider bug");
		});
		const events = stream(customModel, context);
		const seen = [];
		for await (const event of events) seen.push(event.type);
		expect(seen).toEqual(["error"]);
		expect(await events.result()).toMatchObject({ stopReason: "error", errorMessage: "provider bug" });
	});
});
