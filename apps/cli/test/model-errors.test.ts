import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ScriptedLlmServer } from "@gantry/ai/testing";
import { describe, expect, it } from "vitest";
import { type CliWorkspace, useCliFixture } from "./helpers/cli-fixture.js";
import { runCli } from "./helpers/run-cli.js";

let workspace: CliWorkspace;
let server: ScriptedLlmServer;
useCliFixture((newWorkspace, newServer) => {
	workspace = newWorkspace;
	server = newServer;
});

function gantry(args: string[], env?: Record<string, string>, baseUrl = server.openaiBaseUrl) {
	return runCli(["--base-url", baseUrl, "--model", "scripted", ...args], {
		cwd: workspace.project,
		home: workspace.home,
		env,
	});
}

/** The error's one line; the line naming the session (to resume it) follows it. */
function oneLine(stderr: string): string {
	const lines = stderr.trim().split("\n");
	if (lines.length === 2) expect(lines[1]).toMatch(/^Session: \S+\.jsonl \(go on with: gantry --resume [0-9a-f]{8}\)$/);
	expect(lines.length).toBeLessThanOrEqual(2);
	return lines[0] ?? "";
}

describe("model request failures", () => {
	it("ends a request the server never answers after --timeout, with exit code 1", async () => {
		server.enqueue({ noAnswer: true });
		const run = await gantry(["--timeout", "1", "hi"]);
		expect(run.code).toBe(1);
		expect(oneLine(run.stderr)).toBe(
			"gantry: The server sent nothing for 1 s (idleTimeoutMs: 1000); the request was ended — raise the limit with --timeout (e.g. --timeout 5m) or GANTRY_IDLE_TIMEOUT_MS, or check the server",
		);
	});

	it("takes the idle timeout from GANTRY_IDLE_TIMEOUT_MS, and refuses bad values", async () => {
		server.enqueue({ noAnswer: true });
		const run = await gantry(["hi"], { GANTRY_IDLE_TIMEOUT_MS: "700" });
		expect(run.code).toBe(1);
		expect(run.stderr).toContain("idleTimeoutMs: 700");
		const bad = await gantry(["--timeout", "soon", "hi"]);
		expect(bad.code).toBe(2);
		expect(oneLine(bad.stderr)).toContain("--timeout must be a positive duration such as 90 (seconds)");
		const badVariable = await gantry(["hi"], { GANTRY_IDLE_TIMEOUT_MS: "-5" });
		expect(badVariable.code).toBe(2);
	});

	it("says the server sent invalid data when a stream chunk is not JSON, in one line", async () => {
		server.enqueue({ raw: 'data: {"id":"x","choices":[{"index":0,"delta":{"content":"hi"}}]}\n\ndata: {not json\n\n' });
		const run = await gantry(["hi"]);
		expect(run.code).toBe(1);
		expect(oneLine(run.stderr)).toMatch(/^gantry: the server sent invalid data: .*JSON/);
	});

	it("names the retries, and starts every error line with gantry:", async () => {
		const failure = { status: 503, message: "overloaded", headers: { "retry-after-ms": "0" } };
		server.enqueue(failure, failure, failure);
		const run = await gantry(["hi"]);
		expect(run.code).toBe(1);
		expect(oneLine(run.stderr)).toMatch(/^gantry: 503 overloaded \(retried 2 times, then out of retries\)$/);
	});

	it("hints at /v1 when a base URL without it gets 404", async () => {
		const notFound: Server = createServer((_request, response) => {
			response.writeHead(404, { "content-type": "application/json" });
			response.end(JSON.stringify({ error: { message: "404 page not found" } }));
		});
		await new Promise<void>((resolve) => notFound.listen(0, "127.0.0.1", resolve));
		const base = `http://127.0.0.1:${(notFound.address() as AddressInfo).port}`;
		try {
			const run = await gantry(["hi"], undefined, base);
			expect(run.code).toBe(1);
			expect(oneLine(run.stderr)).toMatch(
				new RegExp(`^gantry: 404 .* — the base URL usually ends in /v1: try --base-url ${base}/v1$`),
			);
		} finally {
			await new Promise((resolve) => notFound.close(resolve));
		}
	});

	it("sends --thinking as the request's reasoning effort", async () => {
		server.enqueue({ text: "Thought hard." });
		const run = await gantry(["--thinking", "high", "hi"]);
		expect(run.code).toBe(0);
		expect(server.requests[0]?.body.reasoning_effort).toBe("high");
		const bad = await gantry(["--thinking", "extreme", "hi"]);
		expect(bad.code).toBe(2);
		expect(bad.stderr).toContain('--thinking must be one of minimal, low, medium, high (got "extreme")');
	});
});
