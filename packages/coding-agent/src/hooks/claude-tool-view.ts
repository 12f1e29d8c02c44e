import type { ImageContent, TextContent } from "@gantry/ai";
import { parsePatch } from "@gantry/tools";

/** A call as Claude Code would show it to a hook: its tool name and input fields. */
export interface ClaudeToolView {
	/** `Bash`, `Read`, `Write`, `Edit` or `MultiEdit`, `Grep`, `Glob`, `LS`; any other tool keeps its name. */
	toolName: string;
	input: Record<string, unknown>;
	/** Every name a matcher may pick the call by: Claude Code's (an edit is both `Edit` and `MultiEdit`) and Gantry's. */
	matchNames: string[];
}

/** What the mapping needs from the session: whether the tool is Gantry's builtin, and absolute paths. */
export interface ToolViewContext {
	/** True for the session's own builtin (an extension's `bash` is not mapped). */
	builtin: boolean;
	/** The workspace's cwd. */
	cwd: string;
	/** A path as the model typed it made absolute on the workspace (`~`, relative). */
	resolvePath(path: string): string;
}

type Fields = Record<string, unknown>;

/** Gantry's builtins and the Claude Code tools they stand for. */
const CLAUDE_NAMES: Record<string, string> = {
	bash: "Bash",
	read: "Read",
	write: "Write",
	edit: "Edit",
	grep: "Grep",
	find: "Glob",
	ls: "LS",
};

/** Input fields of Claude Code's tools that Gantry's builtins have no use for; dropped from `updatedInput`. */
const IGNORED_FIELDS: Record<string, readonly string[]> = {
	Bash: ["description"],
	Grep: ["output_mode", "-n", "type", "multiline"],
	LS: ["ignore"],
};

/** The call as Claude Code's hooks see it: Claude Code's names, absolute paths, Bash's timeout in ms. */
export function toClaudeView(name: string, input: Fields, context: ToolViewContext): ClaudeToolView {
	if (context.builtin && name === "apply_patch") return patchView(input, context);
	const claudeName = context.builtin ? CLAUDE_NAMES[name] : undefined;
	if (claudeName === undefined) return { toolName: name, input: { ...input }, matchNames: [name] };
	const { path, ...rest } = input;
	const absolute = (value: unknown) => (typeof value === "string" ? context.resolvePath(value) : value);
	switch (name) {
		case "bash": {
			const { timeout, ...others } = input;
			const view: Fields = { ...others };
			if (typeof timeout === "number") view.timeout = Math.round(timeout * 1000);
			return { toolName: claudeName, input: view, matchNames: [claudeName, name] };
		}
		case "edit": {
			const edits = Array.isArray(rest.edits) ? (rest.edits as Fields[]) : [];
			const matchNames = ["Edit", "MultiEdit", name];
			if (edits.length === 1) {
				const [only] = edits;
				return {
					toolName: "Edit",
					input: { file_path: absolute(path), old_string: only?.oldText, new_string: only?.newText },
					matchNames,
				};
			}
			const claudeEdits = edits.map((edit) => ({ old_string: edit.oldText, new_string: edit.newText }));
			return { toolName: "MultiEdit", input: { file_path: absolute(path), edits: claudeEdits }, matchNames };
		}
		case "read":
		case "write":
			return { toolName: claudeName, input: { file_path: absolute(path), ...rest }, matchNames: [claudeName, name] };
		case "grep": {
			const { ignoreCase, context: lines, limit, ...others } = rest;
			const view: Fields = { ...others };
			if (path !== undefined) view.path = absolute(path);
			if (ignoreCase !== undefined) view["-i"] = ignoreCase;
			if (lines !== undefined) view["-C"] = lines;
			if (limit !== undefined) view.head_limit = limit;
			return { toolName: claudeName, input: view, matchNames: [claudeName, name] };
		}
		default: {
			// find and ls: `path` (a folder); LS always names one, absolute, as Claude Code's does.
			const view: Fields = { ...rest };
			if (path !== undefined) view.path = absolute(path);
			else if (name === "ls") view.path = context.cwd;
			return { toolName: claudeName, input: view, matchNames: [claudeName, name] };
		}
	}
}

/**
 * apply_patch has no Claude Code counterpart, but it edits and writes files: hooks on Edit, MultiEdit or
 * Write see it too (so a patch cannot slip past them), under its own name, with the absolute paths of the
 * files the patch touches as `file_paths` (and `file_path` when there is one).
 */
function patchView(input: Fields, context: ToolViewContext): ClaudeToolView {
	const view: Fields = { ...input };
	let paths: string[] = [];
	try {
		const actions = typeof input.input === "string" ? parsePatch(input.input) : [];
		const named = actions.flatMap((action) =>
			action.type === "update" && action.movePath !== undefined ? [action.path, action.movePath] : [action.path],
		);
		paths = [...new Set(named.map((path) => context.resolvePath(path)))];
	} catch {
		// A patch that does not parse is refused by the tool itself; the hook still sees the text.
	}
	view.file_paths = paths;
	if (paths.length === 1) view.file_path = paths[0];
	return { toolName: "apply_patch", input: view, matchNames: ["apply_patch", "Edit", "MultiEdit", "Write"] };
}

/** Fields the views add that their tool does not take. */
const VIEW_ONLY_FIELDS: Record<string, readonly string[]> = { apply_patch: ["file_path", "file_paths"] };

/**
 * A hook's `updatedInput` (in the names of the view it was shown) back in Gantry's fields. Returns the
 * problem as a string for input Gantry cannot run as asked (`replace_all`, `run_in_background`).
 */
export function fromClaudeInput(name: string, view: ClaudeToolView, updated: unknown): Fields | string {
	if (typeof updated !== "object" || updated === null || Array.isArray(updated)) {
		return `updatedInput must be an object of ${view.toolName}'s input fields`;
	}
	const fields: Fields = { ...(updated as Fields) };
	if (view.matchNames.length > 1) for (const viewOnly of VIEW_ONLY_FIELDS[name] ?? []) delete fields[viewOnly];
	if (view.toolName === name || view.matchNames.length === 1) return fields;
	for (const ignored of IGNORED_FIELDS[view.toolName] ?? []) delete fields[ignored];
	const renamed = (from: string, to: string) => {
		if (!(from in fields)) return;
		const value = fields[from];
		delete fields[from];
		if (value !== undefined && value !== null) fields[to] = value;
	};
	switch (name) {
		case "bash": {
			if (fields.run_in_background === true) return "Gantry's bash has no run_in_background; leave it out";
			delete fields.run_in_background;
			if (fields.timeout !== undefined && fields.timeout !== null) {
				if (typeof fields.timeout !== "number") return "Bash's timeout must be a number of milliseconds";
				fields.timeout = fields.timeout / 1000;
			}
			return fields;
		}
		case "edit":
			return editFields(fields);
		case "read":
		case "write":
			renamed("file_path", "path");
			return fields;
		case "grep": {
			renamed("-i", "ignoreCase");
			renamed("head_limit", "limit");
			const after = fields["-A"];
			const before = fields["-B"];
			delete fields["-A"];
			delete fields["-B"];
			renamed("-C", "context");
			if (fields.context === undefined) {
				const widest = Math.max(...[after, before].filter((value): value is number => typeof value === "number"));
				if (Number.isFinite(widest)) fields.context = widest;
			}
			return fields;
		}
		default:
			return fields;
	}
}

/** Edit `{file_path, old_string, new_string}` or MultiEdit `{file_path, edits}` as Gantry's `{path, edits}`. */
function editFields(fields: Fields): Fields | string {
	const { file_path, edits, old_string, new_string, replace_all, ...rest } = fields;
	const one = (edit: Fields, where: string) => {
		if (edit.replace_all === true) return `${where}replace_all is not supported by Gantry's edit; give each occurrence`;
		return { oldText: edit.old_string, newText: edit.new_string };
	};
	const list = edits === undefined ? [one({ old_string, new_string, replace_all }, "")] : undefined;
	const converted =
		list ??
		(Array.isArray(edits)
			? edits.map((edit, index) =>
					typeof edit === "object" && edit !== null ? one(edit as Fields, `edits[${index}]: `) : edit,
				)
			: undefined);
	if (converted === undefined) return "MultiEdit's edits must be a list of {old_string, new_string}";
	const problem = converted.find((edit): edit is string => typeof edit === "string");
	if (problem !== undefined) return problem;
	const result: Fields = { ...rest, edits: converted };
	if (file_path !== undefined) result.path = file_path;
	return result;
}

/**
 * `tool_response` for PostToolUse: a builtin's structured result with Claude Code's usual fields added
 * (`filePath` and `success` for file tools, `stdout`/`stderr`/`interrupted` for Bash); another tool's
 * structured content, else its content blocks (images without their data).
 */
export function toClaudeResponse(
	view: ClaudeToolView,
	result: { content: (TextContent | ImageContent)[]; structuredContent?: unknown },
): unknown {
	const structured =
		typeof result.structuredContent === "object" && result.structuredContent !== null
			? (result.structuredContent as Fields)
			: undefined;
	if (view.matchNames.length === 1) return structured ?? contentForHooks(result.content);
	const response: Fields = { ...structured };
	if (view.toolName === "Bash") {
		response.stdout = typeof structured?.output === "string" ? structured.output : textOf(result.content);
		response.stderr = "";
		response.interrupted = typeof structured?.signal === "string";
	}
	if (typeof view.input.file_path === "string") {
		response.filePath = view.input.file_path;
		response.success = true;
	}
	if (structured === undefined && view.toolName !== "Bash") response.output = textOf(result.content);
	return response;
}

/** Content blocks for a hook: text as is, images as their type only (the data would only be noise). */
export function contentForHooks(content: readonly (TextContent | ImageContent)[]): Fields[] {
	return content.map((block) =>
		block.type === "text" ? { type: "text", text: block.text } : { type: "image", mimeType: block.mimeType },
	);
}

export function textOf(content: readonly (TextContent | ImageContent)[]): string {
	return content
		.filter((block): block is TextContent => block.type === "text")
		.map((block) => block.text)
		.join("\n");
}
