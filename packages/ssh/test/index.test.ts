import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import * as api from "../src/index.js";
import * as testing from "../src/testing/index.js";

describe("@gantry/ssh surface", () => {
	it("exports exactly these runtime names", () => {
		expect(Object.keys(api).sort()).toEqual(["SshError", "createSshWorkspace"]);
	});

	it("exports the test server at ./testing", () => {
		expect(Object.keys(testing).sort()).toEqual(["TEST_USER", "startTestSshServer"]);
	});

	it("depends on @gantry/ai (its errors), @gantry/tools and the pure-JavaScript ssh2 client only", async () => {
		const manifest = JSON.parse(await readFile(new URL("../package.json", import.meta.url), "utf8")) as {
			dependencies: Record<string, string>;
		};
		expect(Object.keys(manifest.dependencies).sort()).toEqual(["@gantry/ai", "@gantry/tools", "ssh2"]);
	});
});
