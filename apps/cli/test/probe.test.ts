import { startScriptedLlmServer } from "@gantry/ai/testing";
import { it } from "vitest";
import { makeWorkspace, runCli } from "./helpers/run-cli.js";

it("probe", async () => {
	const w = makeWorkspace();
	const server = await startScriptedLlmServer();
	server.enqueue({
		raw: 'data: {"id":"x","choices":[{"delta":{"content":"hi"}}]}\n\ndata: {not json at all\n\n',
		headers: { "content-type": "text/event-stream" },
	} as never);
	let run = await runCli(["--base-url", server.openaiBaseUrl, "--model", "s", "hi"], { cwd: w.project, home: w.home });
	console.log("MALFORMED", run.code, JSON.stringify(run.stderr));
	const base = server.openaiBaseUrl.replace(/\/v1\/?$/, "");
	run = await runCli(["--base-url", base, "--model", "s", "hi"], { cwd: w.project, home: w.home });
	console.log("NO-V1", base, run.code, JSON.stringify(run.stderr));
	await server.close();
	w.remove();
});
