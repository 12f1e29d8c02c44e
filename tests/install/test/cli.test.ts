// The gantry command as its users install it: the one @gantry/cli tarball, `npm install -g` into an empty
// prefix, third-party packages from the registry, and nothing of the workspace on the path. It must
// start, answer a print run against a scripted OpenAI-compatible (and Anthropic) server on 127.0.0.1, and
// find every file its libraries load by path: the bash grammar, QuickJS and the codemode prelude, and the
// @gantry/extensions an extension imports.
import { execFile } from "node:child_process";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, sep } from "node:path";
import { promisify } from "node:util";
import { type ScriptedLlmServer, startScriptedLlmServer } from "@gantry/ai/testing";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";

const run = promisify(execFile);
const ROOT = new URL("../../../", import.meta.url).pathname;
const CLI_VERSION = (JSON.parse(readFileSync(join(ROOT, "apps/cli/package.json"), "utf8")) as { version: string })
	.version;

let workDir = "";
let prefix = "";
let project = "";
let home = "";
let server: ScriptedLlmServer;

/** Runs the installed `gantry` with only its own bin folder and node's on the path. */
async function gantry(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	const environment = { PATH: `${join(prefix, "bin")}:${dirname(process.execPath)}`, HOME: home };
	try {
		const running = run("gantry", args, { cwd: project, env: environment, timeout: 120_000 });
		// Nothing on stdin (gantry would wait for piped input to add to the prompt).
		running.child.stdin?.end();
		const { stdout, stderr } = await running;
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

/** What the tool messages of request `index` told the model. */
function toolResults(index: number): string[] {
	const messages = (server.requests[index]?.body.messages ?? []) as { role: string; content: unknown }[];
	return messages
		.filter((message) => message.role === "tool")
		.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content)));
}

beforeAll(async () => {
	workDir = await mkdtemp(join(tmpdir(), "gantry-cli-install-"));
	prefix = join(workDir, "prefix");
	project = join(workDir, "project");
	home = join(workDir, "home");
	for (const folder of [prefix, project, home]) await mkdir(folder);
	const tarball = inject("packs").find((packed) => packed.name === "@gantry/cli")?.file;
	if (tarball === undefined) throw new Error("pnpm pack:all made no @gantry/cli tarball");
	// Alone: no other tarball, installed from outside the workspace.
	await run("npm", ["install", "-g", "--prefix", prefix, "--no-audit", "--no-fund", "--loglevel=error", tarball], {
		cwd: workDir,
	});
	server = await startScriptedLlmServer();
});

afterAll(async () => {
	await server?.close();
	if (workDir !== "") await rm(workDir, { recursive: true, force: true });
});

describe("npm install -g of the @gantry/cli tarball", () => {
	it("installs one package whose gantry runs from the prefix, with no @gantry library beside it", async () => {
		const installed = join(prefix, "lib", "node_modules", "@gantry", "cli");
		expect(realpathSync(join(prefix, "bin", "gantry")).startsWith(installed + sep)).toBe(true);
		expect(existsSync(join(installed, "node_modules", "@gantry"))).toBe(false);
		expect(existsSync(join(prefix, "lib", "node_modules", "@gantry", "ai"))).toBe(false);
		const version = await gantry(["--version"]);
		expect(version).toEqual({ code: 0, stdout: `${CLI_VERSION}\n`, stderr: "" });
	});

	it("answers a print run through the openai SDK it brings", async () => {
		server.requests.length = 0;
		server.enqueue({ text: "Installed and answering." });
		const answer = await gantry(["--base-url", server.openaiBaseUrl, "--model", "scripted", "-p", "Are you there?"]);
		expect(answer.stdout).toBe("Installed and answering.\n");
		expect(answer.code, answer.stderr).toBe(0);
		expect(server.requests).toHaveLength(1);
	});

	it("answers a print run through the Anthropic SDK it brings", async () => {
		server.requests.length = 0;
		server.enqueue({ text: "Anthropic too." });
		const args = ["--provider", "anthropic", "--base-url", server.anthropicBaseUrl, "--api-key", "sk-test"];
		const answer = await gantry([...args, "--model", "scripted", "-p", "And you?"]);
		expect(answer.stdout).toBe("Anthropic too.\n");
		expect(answer.code, answer.stderr).toBe(0);
		expect(server.requests[0]?.path).toMatch(/\/messages$/);
	});

	it("matches a bash call to an --allow rule with the bash grammar it loads by path, and runs it", async () => {
		server.requests.length = 0;
		server.enqueue({ toolCalls: [{ name: "bash", arguments: { command: "echo from-bash" } }] }, { text: "Ran it." });
		const args = ["--base-url", server.openaiBaseUrl, "--model", "scripted", "--allow", "bash(echo:*)"];
		const answer = await gantry([...args, "-p", "Say hello in the shell"]);
		expect(answer.code, answer.stderr).toBe(0);
		expect(toolResults(1).join("\n")).toContain("from-bash");
	});

	it("runs a codemode script in QuickJS with its guest prelude", async () => {
		server.requests.length = 0;
		server.enqueue(
			{ toolCalls: [{ name: "codemode", arguments: { code: "text('from the guest'); return 6 * 7;" } }] },
			{ text: "Scripted." },
		);
		const args = ["--base-url", server.openaiBaseUrl, "--model", "scripted", "--tools", "read,codemode"];
		const answer = await gantry([...args, "-p", "Compute"]);
		expect(answer.code, answer.stderr).toBe(0);
		const result = toolResults(1).join("\n");
		expect(result).toContain("from the guest");
		expect(result).toContain("42");
	});

	it("loads an extension that imports @gantry/extensions, which is not installed anywhere", async () => {
		await writeFile(
			join(project, "shout.ts"),
			[
				'import { defineTool, type ExtensionAPI, Type } from "@gantry/extensions";',
				"export default function shout(api: ExtensionAPI): void {",
				"\tapi.registerTool(",
				"\t\tdefineTool({",
				'\t\t\tname: "shout",',
				'\t\t\tlabel: "Shout",',
				'\t\t\tdescription: "Upper-cases a text.",',
				"\t\t\tparameters: Type.Object({ text: Type.String() }),",
				"\t\t\tannotations: { readOnlyHint: true },",
				"\t\t\tasync execute(_id, params) {",
				'\t\t\t\treturn { content: [{ type: "text", text: params.text.toUpperCase() }] };',
				"\t\t\t},",
				"\t\t}),",
				"\t);",
				"}",
				"",
			].join("\n"),
		);
		server.requests.length = 0;
		server.enqueue({ toolCalls: [{ name: "shout", arguments: { text: "quiet words" } }] }, { text: "Shouted." });
		const args = ["--base-url", server.openaiBaseUrl, "--model", "scripted", "-e", "./shout.ts"];
		const answer = await gantry([...args, "-p", "Shout"]);
		expect(answer.code, answer.stderr).toBe(0);
		expect(toolResults(1).join("\n")).toContain("QUIET WORDS");
	});
});
