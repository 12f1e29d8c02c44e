import type { Agent, AgentMessage } from "@gantry/agent";
import type { SessionCheckpoints } from "../checkpoints/session-checkpoints.js";
import { runPromptWithHooks } from "../hooks/prompt-hooks.js";
import type { SessionHooks } from "../hooks/session-hooks.js";

/**
 * The prompts of a session in progress, each from its first checkpoint to its last. A prompt spends time
 * before its agent run begins (the checkpoint before it, UserPromptSubmit hooks) and the agent alone cannot
 * be aborted then, having no run yet; an abort in that time is kept here and ends the run as it starts, as
 * one aborted turn, so Esc during a slow first checkpoint is never lost.
 */
export class PromptRuns {
	readonly #agent: Agent;
	readonly #checkpoints: Pick<SessionCheckpoints, "around">;
	readonly #hooks: SessionHooks | undefined;
	readonly #inProgress = new Set<AbortController>();

	constructor(agent: Agent, checkpoints: Pick<SessionCheckpoints, "around">, hooks: SessionHooks | undefined) {
		this.#agent = agent;
		this.#checkpoints = checkpoints;
		this.#hooks = hooks;
	}

	/** Runs one prompt between its checkpoints, with its hooks. Never rejects but for the agent's own refusals. */
	async run(text: string): Promise<void> {
		const stopped = new AbortController();
		const host = {
			run: (input: string | AgentMessage) => {
				const running = this.#agent.prompt(input);
				if (stopped.signal.aborted) this.#agent.abort();
				return running;
			},
			messages: () => this.#agent.state.messages,
		};
		const hooks = this.#hooks;
		this.#inProgress.add(stopped);
		try {
			await this.#checkpoints.around(text, host.messages, () =>
				hooks === undefined ? host.run(text) : runPromptWithHooks(hooks, text, host),
			);
		} finally {
			this.#inProgress.delete(stopped);
		}
	}

	/** Aborts every prompt in progress, including those whose run has not begun yet. */
	abort(): void {
		for (const prompt of this.#inProgress) prompt.abort();
	}
}
