import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ExtensionRunner, loadExtensions } from "../src/index.js";

let folder: string;

beforeEach(async () => {
	folder = await mkdtemp(join(tmpdir(), "gantry-loader-"));
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

async function write(name: string, source: string): Promise<string> {
	const path = join(folder, name);
	await mkdir(join(path, ".."), { recursive: true });
	await writeFile(path, source);
	return path;
}

const TS_EXTENSION = `
import { Type } from "@sinclair/typebox";
import { defineTool, type Extension } from "@gantry/extensions";

const shout = defineTool({
	name: "shout",
	label: "Shout",
	description: "Upper-cases text",
	parameters: Type.Object({ text: Type.String() }),
	async execute(_id, params) {
		const loud: string = params.text.toUpperCase();
		return { content: [{ type: "text", text: loud }] };
	},
});

const extension: Extension = (api) => api.registerTool(shout);
export default extension;
`;

describe("loadExtensions", () => {
	it("loads a .ts extension from a folder outside the workspace, with @gantry/extensions and typebox provided", async () => {
		const path = await write("shout.ts", TS_EXTENSION);
		const [loaded] = await loadExtensions([path], { cwd: folder });
		expect(loaded?.error).toBeUndefined();
		expect(loaded?.path).toBe(path);

		const runner = new ExtensionRunner({ cwd: folder });
		await runner.addLoaded(await loadExtensions([path], { cwd: folder }));
		const [tool] = runner.getAllRegisteredTools();
		expect(tool?.name).toBe("shout");
		expect(runner.getToolSource("shout")).toBe(path);
		const result = await tool?.execute(
			"call_1",
			{ text: "hey" },
			undefined,
			undefined,
			runner.createToolContext("call_1"),
		);
		expect(result?.content).toEqual([{ type: "text", text: "HEY" }]);
	});

	it("loads .js and .mjs modules, resolves relative paths against cwd, and a folder through its index", async () => {
		await write("plain.js", "export default function (api) { api.on('turn_start', () => {}); }\n");
		await write("esm.mjs", "export default (api) => api.on('agent_start', () => {});\n");
		await write(
			"folder-ext/index.ts",
			"export default (api: { on(event: string, handler: () => void): void }) => api.on('turn_end', () => {});\n",
		);
		const loaded = await loadExtensions(["plain.js", "./esm.mjs", "folder-ext"], { cwd: folder });
		expect(loaded.map((entry) => [entry.path, entry.error?.message])).toEqual([
			[join(folder, "plain.js"), undefined],
			[join(folder, "esm.mjs"), undefined],
			[join(folder, "folder-ext"), undefined],
		]);
		const runner = new ExtensionRunner({ cwd: folder });
		await runner.addLoaded(loaded);
		expect(["turn_start", "agent_start", "turn_end"].map((type) => runner.hasHandlers(type as "turn_start"))).toEqual([
			true,
			true,
			true,
		]);
	});

	it("gives an error entry for a missing file, naming the path", async () => {
		const [loaded] = await loadExtensions(["nowhere.ts"], { cwd: folder });
		expect(loaded?.extension).toBeUndefined();
		expect(loaded?.error?.code).toBe("module_not_found");
		expect(loaded?.error?.message).toBe(
			`Extension ${join(folder, "nowhere.ts")} could not be loaded: no such file (or folder with index.ts / index.js)`,
		);
	});

	it("gives an error entry for a module without a default function", async () => {
		await write("named.ts", "export const helper = 1;\n");
		await write("object.ts", "export default { name: 'not a function' };\n");
		const loaded = await loadExtensions(["named.ts", "object.ts"], { cwd: folder });
		for (const [index, name] of ["named.ts", "object.ts"].entries()) {
			expect(loaded[index]?.error?.code).toBe("invalid_module");
			expect(loaded[index]?.error?.message).toContain(join(folder, name));
			expect(loaded[index]?.error?.message).toContain("default export is not a function");
		}
	});

	it("gives an error entry for a module that throws while loading, or does not parse", async () => {
		await write("throws.ts", "throw new Error('cannot start without config');\nexport default () => {};\n");
		await write("syntax.ts", "export default (api => {\n");
		await write("bad-import.ts", "import './missing-helper.js';\nexport default () => {};\n");
		const loaded = await loadExtensions(["throws.ts", "syntax.ts", "bad-import.ts"], { cwd: folder });
		expect(loaded.map((entry) => entry.error?.code)).toEqual(["load_failed", "load_failed", "load_failed"]);
		expect(loaded[0]?.error?.message).toBe(
			`Extension ${join(folder, "throws.ts")} could not be loaded: cannot start without config`,
		);
		expect(loaded[0]?.error?.cause).toBeInstanceOf(Error);
		expect(loaded[1]?.error?.message).toContain(join(folder, "syntax.ts"));
		expect(loaded[2]?.error?.message).toContain("missing-helper");
	});

	it("still loads the good extension next to a broken one, in request order", async () => {
		await write("broken.ts", "throw new Error('broken on purpose');\n");
		await write("good.ts", TS_EXTENSION);
		const loaded = await loadExtensions(["broken.ts", "missing.ts", "good.ts"], { cwd: folder });
		expect(loaded.map((entry) => (entry.error ? entry.error.code : "ok"))).toEqual([
			"load_failed",
			"module_not_found",
			"ok",
		]);
		const runner = new ExtensionRunner({ cwd: folder });
		await runner.addLoaded(loaded);
		expect(runner.getAllRegisteredTools().map((tool) => tool.name)).toEqual(["shout"]);
		expect(runner.getDiagnostics().map((diagnostic) => diagnostic.source)).toEqual([
			join(folder, "broken.ts"),
			join(folder, "missing.ts"),
		]);
	});

	it("applies extra aliases given by the host", async () => {
		await write("host-lib/index.js", "export const greeting = 'from the host';\n");
		await write(
			"uses-alias.ts",
			"import { greeting } from '@host/lib';\nexport default (api: { on(e: string, h: () => string): void }) => api.on('turn_start', () => greeting);\n",
		);
		const loaded = await loadExtensions(["uses-alias.ts"], {
			cwd: folder,
			alias: { "@host/lib": join(folder, "host-lib/index.js") },
		});
		expect(loaded[0]?.error).toBeUndefined();
	});
});
