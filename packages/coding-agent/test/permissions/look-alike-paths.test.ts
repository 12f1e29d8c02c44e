// Path rules judge the file a builtin will really touch: the builtins take a typed name with a no-break
// space or decomposed accents to the existing file with the look-alike name, so the rules must too.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createMappedWorkspace, type MappedWorkspace } from "@gantry/tools/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { compilePermissionRules, judgeCall } from "../../src/permissions/permission-decision.js";
import { withTempDir } from "../session/helpers.js";
import { editCall, runUnderDeny } from "./run-under-deny.js";

const NBSP = "\u00A0";
const NARROW_NBSP = "\u202F";
const CAFE_NFC = "caf\u00E9.md";
const CAFE_NFD = "cafe\u0301.md";

const edit = editCall;
const runCalls = runUnderDeny;

/** Lays out the protected files under `root`: `config/prod settings.json` and `docs/café.md` (NFC). */
async function layOut(root: string): Promise<void> {
	await mkdir(join(root, "config"));
	await mkdir(join(root, "docs"));
	await writeFile(join(root, "config", "prod settings.json"), "one\n");
	await writeFile(join(root, "docs", CAFE_NFC), "one\n");
	await writeFile(join(root, "notes.txt"), "one\n");
}

describe("path rules and look-alike names on this machine", () => {
	it("deny an edit typed with a no-break space or decomposed accents that the tool takes to the denied file", () =>
		withTempDir(async (cwd) => {
			await layOut(cwd);
			const outcomes = await runCalls(
				{ cwd },
				["edit(config/prod settings.json)", `edit(docs/${CAFE_NFC})`],
				[
					edit(`config/prod${NBSP}settings.json`),
					edit(`config/prod${NARROW_NBSP}settings.json`),
					edit(`docs/${CAFE_NFD}`),
					edit("notes.txt"),
				],
			);

			expect(outcomes[0]).toContain("denied by the deny rule edit(config/prod settings.json)");
			expect(outcomes[1]).toContain("denied by the deny rule edit(config/prod settings.json)");
			expect(outcomes[2]).toContain(`denied by the deny rule edit(docs/${CAFE_NFC})`);
			expect(outcomes[3]).toBe("ran");
			expect(await readFile(join(cwd, "config", "prod settings.json"), "utf8")).toBe("one\n");
			expect(await readFile(join(cwd, "docs", CAFE_NFC), "utf8")).toBe("one\n");
			expect(await readFile(join(cwd, "notes.txt"), "utf8")).toBe("two\n");
		}));

	it("match a rule written with decomposed accents against the composed name, and a look-alike folder", () =>
		withTempDir(async (cwd) => {
			await layOut(cwd);
			await mkdir(join(cwd, `prod${NBSP}keys`));
			await writeFile(join(cwd, `prod${NBSP}keys`, "key.txt"), "one\n");
			const rules = compilePermissionRules([], [`edit(docs/${CAFE_NFD})`, `edit(prod${NBSP}keys/**)`]);
			const judge = (path: string) =>
				judgeCall(rules, { toolName: "edit", input: { path }, cwd, annotations: undefined }, "yes");

			expect((await judge(`docs/${CAFE_NFC}`)).decision).toBe("deny");
			expect((await judge(`docs/${CAFE_NFD}`)).decision).toBe("deny");
			// Typed with a plain space, the path leads to the folder with a no-break space the rule names.
			expect((await judge("prod keys/key.txt")).decision).toBe("deny");
			expect((await judge("notes.txt")).decision).toBe("allow");
		}));

	it("allow by a rule only when it covers the file the tool will touch", () =>
		withTempDir(async (cwd) => {
			await layOut(cwd);
			const rules = compilePermissionRules(["edit(docs/**)"], []);
			const judge = (path: string) =>
				judgeCall(rules, { toolName: "edit", input: { path }, cwd, annotations: undefined }, "ask");

			expect((await judge(`docs/${CAFE_NFD}`)).decision).toBe("allow");
			expect((await judge(`config/prod${NBSP}settings.json`)).decision).toBe("ask");
		}));
});

describe("path rules and look-alike names on a workspace that is not this machine", () => {
	let mapped: MappedWorkspace;
	beforeEach(async () => {
		mapped = await createMappedWorkspace();
	});
	afterEach(() => mapped.cleanup());

	it("look the name up on the workspace and deny the look-alike of a denied file", async () => {
		await layOut(mapped.project);
		const outcomes = await runCalls(
			{ workspace: mapped.workspace },
			["edit(config/prod settings.json)", `edit(docs/${CAFE_NFC})`],
			[edit(`config/prod${NBSP}settings.json`), edit(`docs/${CAFE_NFD}`), edit("notes.txt")],
		);

		expect(outcomes[0]).toContain("denied by the deny rule edit(config/prod settings.json)");
		expect(outcomes[1]).toContain(`denied by the deny rule edit(docs/${CAFE_NFC})`);
		expect(outcomes[2]).toBe("ran");
		expect(await readFile(join(mapped.project, "config", "prod settings.json"), "utf8")).toBe("one\n");
		expect(await readFile(join(mapped.project, "docs", CAFE_NFC), "utf8")).toBe("one\n");
		// The folder was listed on the workspace, not on this machine.
		expect(mapped.operations).toContain("readdir /virtual/project/config");
	});
});
