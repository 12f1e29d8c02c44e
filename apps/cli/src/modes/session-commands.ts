import { errorText } from "@gantry/ai";
import type { AgentSession } from "@gantry/coding-agent";
import type { Theme } from "@gantry/extensions";
import type { KeyInput } from "../tui/key-input.js";

/**
 * `/compact [instructions]`: summarises the conversation but its last turns (the session view shows the
 * progress and the result); Ctrl-C stops the summary request. A refusal or failure is one line.
 */
export async function compactInteractively(
	session: AgentSession,
	text: string,
	keys: KeyInput,
	theme: Theme,
	print: (lines: string[]) => void,
): Promise<void> {
	const instructions = text.replace(/^\/compact\b/, "").trim();
	const removeHandler = keys.push((key) => {
		if (key.ctrl && key.name === "c") session.abort();
		return true;
	});
	try {
		await session.compact(instructions === "" ? undefined : instructions);
		print([]);
	} catch (error) {
		print([theme.error(errorText(error))]);
	} finally {
		removeHandler();
	}
}
