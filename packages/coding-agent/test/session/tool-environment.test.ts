import { createFauxModel } from "@gantry/ai";
import { afterEach, assert, beforeEach, describe, expect, it } from "vitest";
import { createAgentSession } from "../../src/index.js";
import { toolResults, withTempDir } from "./helpers.js";

const PLANTED: Record<string, string> = {
	GITHUB_TOKEN: "ghp_session_planted_0001",
	ANTHROPIC_API_KEY: "sk-ant-session-planted-0002",
	SESSION_KEY_UNDER_ANOTHER_NAME: "unused",
	RENAMED_KEY_HOLDER: "sk-the-key-the-session-sends-0003",
	GANTRY_PLAIN_SETTING: "kept",
};

let saved: Record<string, string | undefined>;

beforeEach(() => {
	saved = Object.fromEntries(Object.keys(PLANTED).map((name) => [name, process.env[name]]));
	Object.assign(process.env, PLANTED);
});

afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

describe("the session's tool processes", () => {
	it("bash sees neither secret-named variables nor the key the session sends; settings.env adds back", () =>
		withTempDir(async (cwd) => {
			const model = createFauxModel([
				{ toolCalls: [{ id: "b1", name: "bash", arguments: { command: "env | sort" } }] },
				{ text: "done" },
			]);
			const session = await createAgentSession({
				cwd,
				model,
				apiKey: "sk-the-key-the-session-sends-0003",
				// Settings bring the session's permission policy; the test is about the environment, so bash is allowed.
				settings: { env: { DEPLOY_TOKEN: "given-in-settings" }, permissions: { allow: ["Bash"] } },
			});
			try {
				await session.prompt("go");
				const [result] = toolResults(session.messages);
				assert.isDefined(result);
				const text = result.content.map((block) => block.text ?? "").join("");
				expect(text).not.toContain("ghp_session_planted_0001");
				expect(text).not.toContain("sk-ant-session-planted-0002");
				expect(text).not.toContain("sk-the-key-the-session-sends-0003");
				expect(text).not.toContain("SESSION_KEY_UNDER_ANOTHER_NAME");
				expect(text).toContain("DEPLOY_TOKEN=given-in-settings");
				expect(text).toContain("GANTRY_PLAIN_SETTING=kept");
				expect(text).toContain(`PATH=${process.env.PATH}`);
			} finally {
				await session.dispose();
			}
		}));
});
