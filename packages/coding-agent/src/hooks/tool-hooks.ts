import { ABORTED_TEXT, errorText, validateToolArguments } from "@gantry/agent";
import type { Extension, ToolCallEvent, ToolCallEventResult, ToolResultEvent } from "@gantry/extensions";
import type { Workspace } from "@gantry/tools";
import type { PermissionHints } from "../permissions/permission-hints.js";
import {
	type ClaudeToolView,
	contentForHooks,
	fromClaudeInput,
	textOf,
	toClaudeResponse,
	toClaudeView,
} from "./claude-tool-view.js";
import { describeHookTexts } from "./hook-results.js";
import type { SessionHooks } from "./session-hooks.js";

export interface ToolHooksOptions {
	hooks: SessionHooks;
	/** Where a PreToolUse hook's `permissionDecision` goes for the session's policy. */
	hints: PermissionHints;
	workspace: Workspace;
}

const STOPPING_TEXT = "The session is stopping (a hook said continue: false); the call did not run.";

/**
 * PreToolUse, PostToolUse and PostToolUseFailure as an extension the session installs before every other
 * (its permission policy included), so the hooks are part of the pipeline for model-issued, nested and
 * codemode calls alike. PreToolUse blocks (exit 2, `deny`), rewrites the arguments (`updatedInput`, mapped
 * back to Gantry's fields and checked against the tool's parameters) before the policy judges them, and
 * leaves `allow`/`ask` for the policy in `hints`. When a later handler changes the arguments, the dispatch
 * asks the hooks again and they judge the new ones; the arguments they produced themselves are not judged
 * twice. The Post* hooks add their feedback and context to the result the model sees.
 */
export function createToolHooksExtension(options: ToolHooksOptions): Extension {
	const { hooks, hints, workspace } = options;
	return (api) => {
		/** What the hooks answered for a call, and the arguments they left: asked again for those, they answer the same. */
		const answered = new WeakMap<ToolCallEvent, { input: string; result: ToolCallEventResult | undefined }>();
		/** PreToolUse context waiting for the call's result, by call id. */
		const pendingContext = new Map<string, string>();
		const viewOf = (toolName: string, input: Record<string, unknown>): ClaudeToolView =>
			toClaudeView(toolName, input, {
				builtin: api.getToolInfo(toolName)?.source === "builtin",
				cwd: workspace.cwd,
				resolvePath: (path) => workspace.resolvePath(path),
			});
		const callFields = (event: ToolCallEvent | ToolResultEvent, view: ClaudeToolView) => ({
			tool_name: view.toolName,
			tool_input: view.input,
			tool_use_id: event.toolCallId,
			gantry_tool_name: event.toolName,
			gantry_tool_input: event.input,
			...(event.parentToolCallId === undefined ? {} : { gantry_parent_tool_use_id: event.parentToolCallId }),
		});

		api.on("tool_call", async (event) => {
			const earlier = answered.get(event);
			if (earlier !== undefined && earlier.input === fingerprint(event.input)) return earlier.result;
			const result = await preToolUse(event);
			answered.set(event, { input: fingerprint(event.input), result });
			return result;
		});

		async function preToolUse(event: ToolCallEvent): Promise<ToolCallEventResult | undefined> {
			if (hooks.stopRequest !== undefined) return { block: true, reason: STOPPING_TEXT };
			hints.delete(event);
			if (!hooks.has("PreToolUse")) return undefined;
			const view = viewOf(event.toolName, event.input);
			const outcome = await hooks.run("PreToolUse", view.matchNames, callFields(event, view));
			if (outcome.stop !== undefined) {
				hooks.requestStop(outcome.stop);
				return { block: true, reason: outcome.stop ? `${STOPPING_TEXT} ${outcome.stop}` : STOPPING_TEXT };
			}
			if (outcome.blocks.length > 0) {
				return { block: true, reason: describeHookTexts("Blocked by", "PreToolUse", outcome.blocks) };
			}
			if (outcome.permission?.decision === "deny")
				return { block: true, reason: `Blocked by ${outcome.permission.reason}.` };
			if (outcome.updatedInput !== undefined) {
				const problem = applyUpdatedInput(event, view, outcome.updatedInput);
				if (problem !== undefined) return { block: true, reason: problem };
			}
			if (outcome.permission !== undefined) hints.set(event, outcome.permission);
			if (outcome.contexts.length > 0) {
				pendingContext.set(event.toolCallId, describeHookTexts("Context from", "PreToolUse", outcome.contexts));
			}
			return undefined;
		}

		/** Puts the hook's input in place of the call's, in Gantry's fields; returns why it cannot. */
		function applyUpdatedInput(
			event: ToolCallEvent,
			view: ClaudeToolView,
			updated: { value: unknown; hook: string },
		): string | undefined {
			const lead = `The PreToolUse hook \`${updated.hook}\` changed the ${event.toolName} call's input so that it cannot run`;
			const mapped = fromClaudeInput(event.toolName, view, updated.value);
			if (typeof mapped === "string") return `${lead}: ${mapped}. The call was blocked.`;
			const tool = hooks.getTool(event.toolName);
			let checked: unknown = mapped;
			if (tool !== undefined) {
				try {
					checked = validateToolArguments(tool, {
						type: "toolCall",
						id: event.toolCallId,
						name: event.toolName,
						arguments: mapped,
					});
				} catch (error) {
					return `${lead}:\n${errorText(error)}\nThe call was blocked.`;
				}
			}
			for (const key of Object.keys(event.input)) delete event.input[key];
			Object.assign(event.input, checked);
			return undefined;
		}

		api.on("tool_result", async (event) => {
			const texts: string[] = [];
			const early = pendingContext.get(event.toolCallId);
			if (early !== undefined) {
				pendingContext.delete(event.toolCallId);
				texts.push(early);
			}
			const hookEvent = event.isError ? "PostToolUseFailure" : "PostToolUse";
			if (hooks.has(hookEvent)) {
				const view = viewOf(event.toolName, event.input);
				const text = textOf(event.content);
				const fields = event.isError
					? { ...callFields(event, view), error: text, is_interrupt: text === ABORTED_TEXT }
					: {
							...callFields(event, view),
							tool_response: toClaudeResponse(view, event),
							gantry_tool_response: withStructured(
								{ content: contentForHooks(event.content) },
								event.structuredContent,
							),
						};
				const outcome = await hooks.run(hookEvent, view.matchNames, fields);
				if (outcome.stop !== undefined) hooks.requestStop(outcome.stop);
				if (outcome.blocks.length > 0) texts.push(describeHookTexts("Feedback from", hookEvent, outcome.blocks));
				if (outcome.contexts.length > 0) texts.push(describeHookTexts("Context from", hookEvent, outcome.contexts));
			}
			if (texts.length === 0) return undefined;
			// Returning content without the structured content would drop it: keep it.
			return withStructured(
				{ content: [...event.content, { type: "text" as const, text: texts.join("\n\n") }] },
				event.structuredContent,
			);
		});
	};
}

function withStructured<T extends object>(value: T, structuredContent: ToolResultEvent["structuredContent"]) {
	return structuredContent === undefined ? value : { ...value, structuredContent };
}

function fingerprint(input: unknown): string {
	try {
		return JSON.stringify(input) ?? "";
	} catch {
		return String(Math.random());
	}
}
