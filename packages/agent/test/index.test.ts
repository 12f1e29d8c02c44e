import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("exports exactly the public runtime API", () => {
	expect(Object.keys(api).sort()).toEqual([
		"Agent",
		"GantryAgentError",
		"agentLoop",
		"agentLoopContinue",
		"createToolResultMessage",
		"defaultConvertToLlm",
		"runToolCall",
		"validateToolArguments",
	]);
});
