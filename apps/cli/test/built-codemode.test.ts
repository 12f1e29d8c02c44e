import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { expect, it } from "vitest";

const BUILT_CODING_AGENT = fileURLToPath(new URL("../../../packages/coding-agent/dist/index.js", import.meta.url));

it("the built @gantry/coding-agent finds its codemode guest prelude and runs a script", () => {
	const temp = mkdtempSync(join(tmpdir(), "gantry-built-codemode-"));
	try {
		const program = [
			`const { runCodemodeScript } = await import(${JSON.stringify(pathToFileURL(BUILT_CODING_AGENT).href)});`,
			"const tools = { list: () => [], call: async () => { throw new Error('no tools'); } };",
			`const result = await runCodemodeScript({ code: "text('from the guest'); return 6 * 7;", tools, tempDir: ${JSON.stringify(temp)} });`,
			"process.stdout.write(JSON.stringify(result));",
		].join("\n");
		const output = execFileSync(process.execPath, ["--input-type=module", "-e", program], { encoding: "utf8" });
		const result = JSON.parse(output) as { ok: boolean; text: string };
		expect(result).toMatchObject({ ok: true, text: "Script completed\nfrom the guest\n42" });
	} finally {
		rmSync(temp, { recursive: true, force: true });
	}
});
