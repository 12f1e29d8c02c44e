import { describe, expect, test } from "vitest";
import { mapMcpResult } from "../src/index.js";

const details = { server: "s", tool: "t" };

describe("mapMcpResult", () => {
	test("text and images as they are; audio, links and embedded resources as text with their URI", () => {
		const result = mapMcpResult(
			{
				content: [
					{ type: "text", text: "hello" },
					{ type: "image", data: "aGk=", mimeType: "image/png" },
					{ type: "audio", data: "AAAA", mimeType: "audio/wav" },
					{ type: "resource_link", uri: "file:///a.txt", name: "a.txt", mimeType: "text/plain", description: "A file" },
					{ type: "resource", resource: { uri: "file:///b.txt", mimeType: "text/plain", text: "inside" } },
					{ type: "resource", resource: { uri: "file:///c.png", mimeType: "image/png", blob: "aW1n" } },
					{ type: "resource", resource: { uri: "file:///d.bin", mimeType: "application/zip", blob: "AAAAAAAA" } },
				],
			},
			details,
		);
		expect(result.content).toEqual([
			{ type: "text", text: "hello" },
			{ type: "image", data: "aGk=", mimeType: "image/png" },
			{ type: "text", text: "[audio, audio/wav, about 3 bytes; not shown to the model]" },
			{ type: "text", text: "Resource link: a.txt <file:///a.txt> (text/plain) — A file" },
			{ type: "text", text: "Resource file:///b.txt (text/plain):\ninside" },
			{ type: "image", data: "aW1n", mimeType: "image/png" },
			{ type: "text", text: "[resource file:///d.bin, application/zip, about 6 bytes]" },
		]);
		expect(result.isError).toBeUndefined();
		expect(result.details).toEqual(details);
	});

	test("structuredContent is carried, and becomes the text when there is no content; isError is kept", () => {
		expect(mapMcpResult({ content: [], structuredContent: { a: 1 }, isError: true }, details)).toEqual({
			content: [{ type: "text", text: '{"a":1}' }],
			structuredContent: { a: 1 },
			isError: true,
			details,
		});
	});

	test("old servers' toolResult and unknown blocks still reach the model", () => {
		expect(mapMcpResult({ toolResult: { ok: true } }, details).content).toEqual([
			{ type: "text", text: '{"ok":true}' },
		]);
		expect(mapMcpResult({ content: [{ type: "video", uri: "x" }] }, details).content[0]).toEqual({
			type: "text",
			text: '[a "video" block: {"type":"video","uri":"x"}]',
		});
	});
});
