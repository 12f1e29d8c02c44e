import type { AgentMessage } from "@gantry/agent";
import type { UserMessage } from "@gantry/ai";
import { findLastAssistant } from "../session/session-basics.js";
import { textOf } from "./claude-tool-view.js";
import { describeHookTexts } from "./hook-results.js";
import type { SessionHooks } from "./session-hooks.js";

/** What a prompt needs from its session. */
export interface PromptHost {
	/** Runs the agent on a message until it stops (`agent.prompt`). */
	run(input: string | AgentMessage): Promise<void>;
	/** The conversation, to find the run's last answer. */
	messages(): readonly AgentMessage[];
}

/** How Claude Code names the ways a session starts and ends (`source`, `reason`). */
export type SessionStartSource = "startup" | "resume" | "clear" | "compact";
export type SessionEndReason = "clear" | "logout" | "prompt_input_exit" | "other";

/**
 * One prompt with its hooks, as Claude Code runs them: UserPromptSubmit first (exit 2 or `decision: "block"`
 * drops the prompt and tells the user why; `additionalContext` and plain stdout join the prompt for the
 * model, after the context SessionStart left), then the agent, then Stop for as long as a Stop hook blocks
 * (exit 2 or `decision: "block"`): its reason is the agent's next instruction, and the next Stop carries
 * `stop_hook_active: true`. `continue: false` from any hook ends the prompt and shows its `stopReason`.
 * Stop does not run after an aborted or failed run. Never rejects for a hook's failure.
 */
export async function runPromptWithHooks(hooks: SessionHooks, text: string, host: PromptHost): Promise<void> {
	hooks.clearStopRequest();
	const aborts = hooks.aborts;
	const contexts = hooks.takeContext();
	if (hooks.has("UserPromptSubmit")) {
		const submitted = await hooks.run("UserPromptSubmit", [], { prompt: text });
		if (hooks.aborts !== aborts) return;
		if (submitted.stop !== undefined) return tellStop(hooks, submitted.stop);
		if (submitted.blocks.length > 0) {
			hooks.tell(describeHookTexts("The prompt was blocked by", "UserPromptSubmit", submitted.blocks), "warning");
			return;
		}
		if (submitted.contexts.length > 0) {
			contexts.push(describeHookTexts("Context from", "UserPromptSubmit", submitted.contexts));
		}
	}
	let input: string | UserMessage = contexts.length === 0 ? text : userMessage([text, ...contexts]);
	let stopHookActive = false;
	while (true) {
		await host.run(input);
		if (hooks.stopRequest !== undefined) return tellStop(hooks, hooks.stopRequest);
		const last = findLastAssistant(host.messages());
		if (!hooks.has("Stop") || last === undefined || last.stopReason === "aborted" || last.stopReason === "error") {
			return;
		}
		if (hooks.aborts !== aborts) return;
		const stop = await hooks.run("Stop", [], {
			stop_hook_active: stopHookActive,
			last_assistant_message: textOf(last.content.filter((block) => block.type === "text")),
		});
		if (hooks.aborts !== aborts) return;
		if (stop.stop !== undefined) return tellStop(hooks, stop.stop);
		if (stop.blocks.length === 0) return;
		stopHookActive = true;
		input = userMessage([describeHookTexts("Instructions from", "Stop", stop.blocks)]);
	}
}

/** SessionStart: its context waits for the first prompt; `source` is what its matchers match. */
export async function runSessionStart(hooks: SessionHooks, source: SessionStartSource): Promise<void> {
	if (!hooks.has("SessionStart")) return;
	const started = await hooks.run("SessionStart", [source], { source });
	if (started.contexts.length > 0)
		hooks.addContext(describeHookTexts("Context from", "SessionStart", started.contexts));
	if (started.stop !== undefined) tellStop(hooks, started.stop);
}

/** SessionEnd: it cannot change anything; its failures reach the user. `reason` is what its matchers match. */
export async function runSessionEnd(hooks: SessionHooks, reason: SessionEndReason): Promise<void> {
	if (hooks.has("SessionEnd")) await hooks.run("SessionEnd", [reason], { reason });
}

function tellStop(hooks: SessionHooks, reason: string): void {
	hooks.tell(
		reason === "" ? "A hook stopped the session (continue: false)." : `A hook stopped the session: ${reason}`,
		"warning",
	);
}

function userMessage(texts: string[]): UserMessage {
	return { role: "user", content: texts.map((text) => ({ type: "text" as const, text })), timestamp: Date.now() };
}
