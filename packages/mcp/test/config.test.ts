// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the config files under test use ${VAR} on purpose
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, test } from "vitest";
import { GantryMcpError, loadMcpConfig, parseMcpConfig } from "../src/index.js";
import { makeTempDir } from "./helpers.js";

const temps: { remove(): void }[] = [];
afterEach(() => {
	for (const temp of temps.splice(0)) temp.remove();
});

function folders() {
	const project = makeTempDir();
	const home = makeTempDir();
	temps.push(project, home);
	mkdirSync(join(home.path, ".gantry"));
	return {
		project: project.path,
		home: home.path,
		writeProject: (value: unknown) => writeFileSync(join(project.path, ".mcp.json"), JSON.stringify(value)),
		writeUser: (value: unknown) => writeFileSync(join(home.path, ".gantry", "mcp.json"), JSON.stringify(value)),
	};
}

describe("loadMcpConfig", () => {
	test("no files: no servers", async () => {
		const { project, home } = folders();
		expect(await loadMcpConfig(project, { home, env: {} })).toEqual({ mcpServers: {} });
	});

	test("project: false reads only the user's file", async () => {
		const dirs = folders();
		dirs.writeUser({ mcpServers: { mine: { command: "user-server" } } });
		dirs.writeProject({ mcpServers: { theirs: { command: "project-server" } } });
		const config = await loadMcpConfig(dirs.project, { home: dirs.home, env: {}, project: false });
		expect(config.mcpServers).toEqual({ mine: { command: "user-server" } });
	});

	test("merges the user's file under the project's, by server name, and expands ${VAR}", async () => {
		const dirs = folders();
		dirs.writeUser({
			mcpServers: {
				shared: { command: "user-version" },
				mine: { type: "http", url: "${BASE}/mcp", headers: { Authorization: "Bearer ${TOKEN}" } },
			},
		});
		dirs.writeProject({
			mcpServers: { shared: { command: "node", args: ["${HOME_DIR:-/nowhere}/server.js"], exposure: "codemode" } },
		});
		const config = await loadMcpConfig(dirs.project, {
			home: dirs.home,
			env: { BASE: "http://127.0.0.1:9", TOKEN: "t0k" },
		});
		expect(config.mcpServers).toEqual({
			shared: { command: "node", args: ["/nowhere/server.js"], exposure: "codemode" },
			mine: { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer t0k" } },
		});
	});

	test("an unset variable, bad JSON and a bad entry are clear errors naming the file", async () => {
		const dirs = folders();
		dirs.writeProject({ mcpServers: { gh: { command: "gh-mcp", env: { TOKEN: "${GITHUB_TOKEN}" } } } });
		await expect(loadMcpConfig(dirs.project, { home: dirs.home, env: {} })).rejects.toThrow(
			/\.mcp\.json: server "gh" uses \$\{GITHUB_TOKEN\}, which is not set/,
		);
		writeFileSync(join(dirs.project, ".mcp.json"), "{ not json");
		await expect(loadMcpConfig(dirs.project, { home: dirs.home, env: {} })).rejects.toThrow(/is not valid JSON/);
		dirs.writeProject({ mcpServers: { x: { args: [] } } });
		const error = await loadMcpConfig(dirs.project, { home: dirs.home, env: {} }).catch((caught) => caught);
		expect(error).toBeInstanceOf(GantryMcpError);
		expect(error.code).toBe("invalid_config");
		expect(error.message).toContain(`server "x" needs "command"`);
	});
});

describe("parseMcpConfig", () => {
	test("checks exposure, timeouts and per-tool settings", () => {
		expect(() => parseMcpConfig({ mcpServers: { a: { command: "x", exposure: "loud" } } }, "cfg")).toThrow(
			/"exposure" must be one of direct, model-only, codemode, deferred, hidden/,
		);
		expect(() => parseMcpConfig({ mcpServers: { a: { command: "x", timeoutMs: -1 } } }, "cfg")).toThrow(/timeoutMs/);
		expect(() =>
			parseMcpConfig({ mcpServers: { a: { command: "x", tools: { t: { readOnly: "yes" } } } } }, "cfg"),
		).toThrow(/tools\.t\.readOnly/);
		expect(() => parseMcpConfig({ mcpServers: { a: { type: "http", url: "ftp://x" } } }, "cfg")).toThrow(/http\(s\)/);
		expect(() => parseMcpConfig({ mcpServers: { a: { command: "x", sandbox: "yes" } } }, "cfg")).toThrow(
			/"sandbox" must be true or false/,
		);
		expect(parseMcpConfig({ mcpServers: { a: { command: "x", sandbox: true } } }, "cfg").mcpServers.a).toMatchObject({
			sandbox: true,
		});
		expect(parseMcpConfig({ mcpServers: { a: { url: "http://127.0.0.1:1/mcp" } } }, "cfg").mcpServers.a).toEqual({
			type: "http",
			url: "http://127.0.0.1:1/mcp",
		});
	});
});
