import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_MODEL_IDS } from "@gantry/ai";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { withSettingsDefaults } from "../src/settings-model.js";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { runCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

function writeSettings(scope: "user" | "project" | "local", settings: Record<string, unknown>): void {
	const folder = join(scope === "user" ? workspace.home : workspace.project, ".gantry");
	mkdirSync(folder, { recursive: true });
	const name = scope === "local" ? "settings.local.json" : "settings.json";
	writeFileSync(join(folder, name), JSON.stringify(settings));
}

function gantry(args: string[], env?: Record<string, string>) {
	return runCli(["--no-session", ...args, "hi"], { cwd: workspace.project, home: workspace.home, env });
}

function requestedModel(index = 0): unknown {
	return server.requests[index]?.body.model;
}

describe("settings model and provider", () => {
	it("the project's settings name the model when the command line does not; they beat the user's", async () => {
		writeSettings("user", { model: "from-user" });
		writeSettings("project", { model: "from-project" });
		server.enqueue({ text: "ok" });
		const run = await gantry(["--base-url", server.openaiBaseUrl]);
		expect(run.stderr).not.toContain("needs --model");
		expect(run.code).toBe(0);
		expect(requestedModel()).toBe("from-project");
	});

	it("the user's settings are the default of every folder, and settings.local.json beats the project's", async () => {
		writeSettings("user", { model: "from-user" });
		server.enqueue({ text: "one" });
		expect((await gantry(["--base-url", server.openaiBaseUrl])).code).toBe(0);
		expect(requestedModel(0)).toBe("from-user");
		writeSettings("project", { model: "from-project" });
		writeSettings("local", { model: "from-local" });
		server.enqueue({ text: "two" });
		expect((await gantry(["--base-url", server.openaiBaseUrl])).code).toBe(0);
		expect(requestedModel(1)).toBe("from-local");
	});

	it("--model wins over the settings", async () => {
		writeSettings("project", { model: "from-project" });
		server.enqueue({ text: "ok" });
		expect((await gantry(["--base-url", server.openaiBaseUrl, "--model", "from-flag"])).code).toBe(0);
		expect(requestedModel()).toBe("from-flag");
	});

	it("the settings' provider picks the wire format, and --provider drops a settings model of another provider", async () => {
		writeSettings("project", { provider: "anthropic", model: "claude-from-settings" });
		server.enqueue({ text: "ok" });
		expect((await gantry(["--base-url", server.anthropicBaseUrl])).code).toBe(0);
		expect(server.requests[0]?.format).toBe("anthropic");
		expect(requestedModel(0)).toBe("claude-from-settings");

		// OPENAI_BASE_URL serves OpenAI's catalogue: --provider openai takes its default, not Anthropic's model.
		server.enqueue({ text: "ok" });
		const run = await gantry(["--provider", "openai"], { OPENAI_BASE_URL: server.openaiBaseUrl, OPENAI_API_KEY: "k" });
		expect(run.stderr).toBe("");
		expect(run.code).toBe(0);
		expect(requestedModel(1)).toBe(DEFAULT_MODEL_IDS.openai);
	});

	it("a settings model that is not a string stops the run naming the file", async () => {
		writeSettings("project", { model: 5 });
		const run = await gantry(["--base-url", server.openaiBaseUrl]);
		expect(run.code).toBe(1);
		expect(run.stderr).toContain(join(workspace.project, ".gantry", "settings.json"));
		expect(run.stderr).toContain("model");
		expect(server.requests).toHaveLength(0);
	});
});

describe("withSettingsDefaults", () => {
	it("fills only what the flags leave open and never mixes a flag with a contradicting setting", () => {
		const settings = { provider: "anthropic", model: "claude-sonnet-5-5" };
		expect(withSettingsDefaults({}, settings)).toEqual(settings);
		expect(withSettingsDefaults({ model: "gpt-5.6-terra" }, settings)).toEqual({ model: "gpt-5.6-terra" });
		expect(withSettingsDefaults({ provider: "openai" }, settings)).toEqual({ provider: "openai" });
		expect(withSettingsDefaults({ provider: "anthropic" }, settings)).toEqual(settings);
		expect(withSettingsDefaults({ baseUrl: "http://127.0.0.1:1/v1" }, { model: "qwen3:8b" })).toEqual({
			baseUrl: "http://127.0.0.1:1/v1",
			model: "qwen3:8b",
		});
	});
});
