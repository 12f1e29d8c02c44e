import { expect, it } from "vitest";
import * as api from "../src/index.js";

it("exports exactly the public runtime API", () => {
	expect(Object.keys(api).sort()).toEqual([
		"ABORTED_TEXT",
		"Agent",
		"GantryAgentError",
		"MAX_ERROR_TEXT_CHARS",
		"ToolCallIdentity",
		"agentLoop",
		"agentLoopContinue",
		"boundErrorText",
		"createToolResultMessage",
		"defaultConvertToLlm",
		"elideMiddle",
		"errorText",
		"mergeToolResult",
		"runToolCall",
		"throwIfAborted",
		"validateToolArguments",
	]);
});
