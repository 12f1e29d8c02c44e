import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ExtensionToolContext } from "@gantry/extensions";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	createBashToolDefinition,
	createLocalWorkspace,
	isSecretVariableName,
	toolProcessEnvironment,
} from "../../src/index.js";

const noContext = undefined as unknown as ExtensionToolContext;

/** Variables a developer's shell commonly holds, set on this process for the test. */
const PLANTED: Record<string, string> = {
	OPENAI_API_KEY: "sk-planted-openai-0001",
	GITHUB_TOKEN: "ghp_planted_github_0002",
	AWS_SECRET_ACCESS_KEY: "planted-aws-secret-0003",
	db_password: "planted-db-password-0004",
	GOOGLE_APPLICATION_CREDENTIALS: "/planted/credentials.json",
	npm_config__authToken: "planted-npm-token-0005",
	MY_LLM: "sk-planted-value-under-another-name",
	GANTRY_PLAIN_SETTING: "kept",
};

let dir: string;
let saved: Record<string, string | undefined>;

beforeEach(async () => {
	dir = await realpath(await mkdtemp(join(tmpdir(), "gantry-env-test-")));
	saved = Object.fromEntries(Object.keys(PLANTED).map((name) => [name, process.env[name]]));
	Object.assign(process.env, PLANTED);
});

afterEach(async () => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
	await rm(dir, { recursive: true, force: true });
});

/** The environment a real bash process printed, as a record. */
async function environmentOfBash(workspace = createLocalWorkspace(dir), env?: Record<string, string>) {
	const tool = createBashToolDefinition(workspace, { tempDir: dir, ...(env ? { env } : {}) });
	const result = await tool.execute("call-1", { command: "env -0" }, undefined, undefined, noContext);
	const text = (result.structuredContent as { output: string }).output;
	return Object.fromEntries(
		text
			.split("\0")
			.filter(Boolean)
			.map((entry) => [entry.slice(0, entry.indexOf("=")), entry.slice(entry.indexOf("=") + 1)]),
	);
}

describe("tool processes get the environment without secrets", () => {
	it("a bash command on a local workspace sees no variable whose name says it is a secret", async () => {
		const seen = await environmentOfBash();
		for (const name of ["OPENAI_API_KEY", "GITHUB_TOKEN", "AWS_SECRET_ACCESS_KEY", "db_password"]) {
			expect(seen[name], name).toBeUndefined();
		}
		expect(seen.GOOGLE_APPLICATION_CREDENTIALS).toBeUndefined();
		expect(seen.npm_config__authToken).toBeUndefined();
		// The rest of the environment stays.
		expect(seen.PATH).toBe(process.env.PATH);
		expect(seen.HOME).toBe(process.env.HOME);
		expect(seen.GANTRY_PLAIN_SETTING).toBe("kept");
	});

	it("leaves out a variable holding a key the session uses, whatever it is called, and adds variables back", async () => {
		const workspace = createLocalWorkspace(dir, {
			environment: () =>
				toolProcessEnvironment({
					secrets: ["sk-planted-value-under-another-name", "none"],
					add: { DEPLOY_TOKEN: "given-explicitly" },
				}),
		});
		const seen = await environmentOfBash(workspace, { SERVICE_API_KEY: "from-the-bash-option" });
		expect(seen.MY_LLM).toBeUndefined();
		expect(seen.DEPLOY_TOKEN).toBe("given-explicitly");
		expect(seen.SERVICE_API_KEY).toBe("from-the-bash-option");
		expect(seen.GANTRY_PLAIN_SETTING).toBe("kept");
	});

	it("matches names without regard to case and keeps PATH, HOME and LANG", () => {
		expect(isSecretVariableName("Openai_Api_Key")).toBe(true);
		expect(isSecretVariableName("x_credentials_file")).toBe(true);
		expect(isSecretVariableName("PATH")).toBe(false);
		const environment = toolProcessEnvironment({
			base: { PATH: "/bin", HOME: "/home/u", LANG: "C.UTF-8", SlackToken: "t", UNSET: undefined },
		});
		expect(environment).toEqual({ PATH: "/bin", HOME: "/home/u", LANG: "C.UTF-8" });
	});

	it("takes a name like __proto__ from a settings file as a plain variable", () => {
		const add = JSON.parse('{"__proto__": "x", "A": "1"}') as Record<string, string>;
		const environment = toolProcessEnvironment({ base: {}, add });
		expect(Object.keys(environment).sort()).toEqual(["A", "__proto__"]);
		expect(Object.getPrototypeOf(environment)).toBe(Object.prototype);
	});
});
