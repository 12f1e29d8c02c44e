import { describe, expect, it } from "vitest";
import { attributeToCommand } from "../src/command-attribution.js";
import { newCommandId } from "../src/profile.js";

const base64 = (key: string) => Buffer.from(key).toString("base64");

describe("a command's own key for the proxy", () => {
	it("replaces the workspace's key in raw and percent-encoded user names, and nothing else", () => {
		const workspaceKey = newCommandId();
		const raw = `srt.${base64(workspaceKey)}`;
		const args = [
			"--setenv",
			"HTTP_PROXY",
			`http://srt.${encodeURIComponent(base64(workspaceKey))}:token@localhost:3128`,
			"--setenv",
			"CLOUDSDK_PROXY_USERNAME",
			raw,
			"--",
			"echo",
			raw.slice(4),
		];
		const { args: attributed, key } = attributeToCommand(args, workspaceKey);
		expect(key).not.toBe(workspaceKey);
		expect(attributed[2]).toBe(`http://srt.${encodeURIComponent(base64(key))}:token@localhost:3128`);
		expect(attributed[5]).toBe(`srt.${base64(key)}`);
		// A word that only looks like the key (no `srt.` before it) is the command's own.
		expect(attributed[8]).toBe(raw.slice(4));
		expect(attributeToCommand(args, workspaceKey).key).not.toBe(key);
	});

	it("keeps the invocation and the workspace's key when the key is not where sandbox-runtime puts it", () => {
		const args = ["--setenv", "HTTP_PROXY", "http://localhost:3128", "--", "echo"];
		expect(attributeToCommand(args, "workspace-key")).toEqual({ args, key: "workspace-key" });
	});
});
