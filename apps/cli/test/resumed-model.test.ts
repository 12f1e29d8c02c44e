import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getModels } from "@gantry/ai";
import { readRecordedModel } from "@gantry/coding-agent";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type ModelChoice, selectModel } from "../src/model-selection.js";
import { selectResumedModel } from "../src/resumed-model.js";

let dir: string;
let transcript: string;
beforeEach(() => {
	dir = mkdtempSync(join(tmpdir(), "gantry-resumed-model-"));
	transcript = join(dir, "session.jsonl");
	writeFileSync(transcript, `${JSON.stringify({ type: "session", version: 1, id: "x", cwd: dir, createdAt: "" })}\n`);
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function record(provider: string, id: string): void {
	appendFileSync(transcript, `${JSON.stringify({ type: "model", provider, id, timestamp: 0 })}\n`);
}

const env = { OPENAI_API_KEY: "k", ANTHROPIC_API_KEY: "k" };
const OPENAI_DEFAULT = selectModel({}, env).model.id;
function resume(choice: ModelChoice, path = transcript) {
	const notices: string[] = [];
	const selected = selectResumedModel(
		choice,
		path,
		(given) => selectModel(given, env),
		(message) => {
			notices.push(message);
		},
	);
	return { model: `${selected.model.provider}/${selected.model.id}`, notices };
}

describe("the model of a resumed session", () => {
	const [openaiFirst, openaiOther] = getModels("openai");
	const anthropic = getModels("anthropic")[0];

	it("is the last one recorded, unless --model names one or --provider names another provider", () => {
		if (openaiFirst === undefined || openaiOther === undefined || anthropic === undefined) throw new Error("catalogue");
		expect(readRecordedModel(transcript)).toBeUndefined();
		expect(readRecordedModel(join(dir, "missing.jsonl"))).toBeUndefined();
		record("openai", openaiOther.id);
		record("anthropic", anthropic.id);
		// A message quoting a model entry is not one; a torn line is skipped.
		appendFileSync(transcript, `${JSON.stringify({ type: "message", message: { text: '{"type":"model"}' } })}\n`);
		appendFileSync(transcript, '{"type":"model","provider":"openai","id');
		expect(readRecordedModel(transcript)).toEqual({ provider: "anthropic", id: anthropic.id });
		expect(resume({})).toEqual({ model: `anthropic/${anthropic.id}`, notices: [] });
		expect(resume({ model: openaiFirst.id }).model).toBe(`openai/${openaiFirst.id}`);
		expect(resume({ provider: "anthropic" }).model).toBe(`anthropic/${anthropic.id}`);
		// Another provider than the recorded one: that provider's default.
		expect(resume({ provider: "openai" }).model).toBe(`openai/${OPENAI_DEFAULT}`);
		expect(resume({}, join(dir, "new.jsonl")).model).toBe(`openai/${OPENAI_DEFAULT}`);
	});

	it("falls back to the usual choice, with a notice, when the recorded model cannot be reached", () => {
		record("openai-compatible", "qwen3:8b");
		expect(resume({ baseUrl: "http://127.0.0.1:9/v1" }).model).toBe("openai-compatible/qwen3:8b");
		const { model, notices } = resume({});
		expect(model).toBe(`openai/${OPENAI_DEFAULT}`);
		expect(notices).toEqual([
			expect.stringContaining(`the session was switched to openai-compatible/qwen3:8b, which this run cannot use`),
		]);
	});
});
