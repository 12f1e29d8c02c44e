import { mkdir, stat } from "node:fs/promises";
import { dirname } from "node:path";
import { defineTool, type ToolDefinition } from "@gantry/extensions";
import { type Static, Type } from "@sinclair/typebox";
import { writeFileAtomic } from "./atomic-write.js";
import { renderErrorResult, resultText } from "./edit/render.js";
import { withFileMutationQueue } from "./mutation-queue.js";
import { resolveToolPath } from "./paths.js";

export const writeSchema = Type.Object(
	{
		path: Type.String({
			description: "File to write: relative to the working folder, absolute, or starting with ~.",
		}),
		content: Type.String({ description: "The complete new content of the file." }),
	},
	{ additionalProperties: false },
);

export type WriteToolInput = Static<typeof writeSchema>;

export const writeOutputSchema = Type.Object(
	{
		path: Type.String({ description: "Absolute path of the written file." }),
		bytes: Type.Integer({ description: "Size of the file in bytes (UTF-8)." }),
		created: Type.Boolean({ description: "true when the file did not exist before." }),
	},
	{ additionalProperties: false },
);

/** What the UI gets in `details` of a successful write. */
export interface WriteToolDetails {
	/** Absolute path of the written file. */
	path: string;
	/** Bytes written (the UTF-8 size of `content`). */
	bytes: number;
	/** true when the file did not exist before, false when it was overwritten. */
	created: boolean;
}

/** What is at a path, as far as write cares. */
export interface WriteTargetInfo {
	isDirectory: boolean;
}

/** All the file I/O of the write tool; replace it to write files somewhere else (a container, a remote host). */
export interface WriteOperations {
	/** Creates a folder and its missing parents; resolves when it exists already. May reject (e.g. a parent is a file). */
	mkdir(path: string): Promise<void>;
	/** Writes the file so that a crash never leaves it half written; an existing file keeps its permissions. May reject. */
	writeFileAtomic(path: string, data: Uint8Array): Promise<void>;
	/** What is at `path`, or `undefined` when nothing is. Rejects only for unexpected errors. */
	stat(path: string): Promise<WriteTargetInfo | undefined>;
}

function errorCode(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error ? String(error.code) : undefined;
}

/** The local file system, with writes through `writeFileAtomic` (temporary file + rename). */
export const localWriteOperations: WriteOperations = {
	mkdir: async (path) => {
		await mkdir(path, { recursive: true });
	},
	writeFileAtomic: (path, data) => writeFileAtomic(path, data),
	stat: async (path) => {
		try {
			return { isDirectory: (await stat(path)).isDirectory() };
		} catch (error) {
			// ENOTDIR: a parent is a file, so nothing is at `path`; mkdir then says why it cannot be created.
			if (errorCode(error) === "ENOENT" || errorCode(error) === "ENOTDIR") return undefined;
			throw error;
		}
	},
};

export interface WriteToolOptions {
	/** Where the file I/O goes. Default `localWriteOperations`. */
	operations?: WriteOperations;
}

function describeWriteError(error: unknown, displayPath: string): Error {
	const reason = error instanceof Error ? error.message : String(errorCode(error) ?? error);
	switch (errorCode(error)) {
		case "ENOTDIR":
		case "EEXIST":
			return new Error(`Cannot write ${displayPath}: a part of its folder path is a file, not a folder (${reason}).`);
		case "EISDIR":
			return new Error(`Cannot write ${displayPath}: it is a folder; give the path of a file inside it.`);
		case "EACCES":
		case "EPERM":
		case "EROFS":
			return new Error(`Permission denied: cannot write ${displayPath} (${reason}).`);
		default:
			return new Error(`Cannot write ${displayPath}: ${reason}`);
	}
}

/** Runs one file operation, turning its failure into a message that says what to do. */
async function withWriteErrors<T>(displayPath: string, operation: () => Promise<T>): Promise<T> {
	try {
		return await operation();
	} catch (error) {
		throw describeWriteError(error, displayPath);
	}
}

function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}

/** The `write` tool: creates or replaces a whole file, atomically, creating missing folders. */
export function createWriteToolDefinition(
	cwd: string,
	options: WriteToolOptions = {},
): ToolDefinition<typeof writeSchema, WriteToolDetails> {
	const operations = options.operations ?? localWriteOperations;
	return defineTool({
		name: "write",
		label: "Write",
		description:
			"Write a file: creates it (and any missing parent folders) or replaces its whole content. The write is atomic, and an existing file keeps its permissions.",
		promptSnippet: "Create or overwrite a whole file (parent folders are created)",
		promptGuidelines: ["Use write for new files and complete rewrites; to change part of an existing file, use edit."],
		parameters: writeSchema,
		outputSchema: writeOutputSchema,
		constrainedSampling: { type: "json_schema", strict: "prefer" },
		annotations: { destructiveHint: true },
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const displayPath = params.path;
			const path = resolveToolPath(cwd, params.path);
			const data = Buffer.from(params.content ?? "", "utf8");
			return withFileMutationQueue(path, async () => {
				throwIfAborted(signal);
				const existing = await withWriteErrors(displayPath, () => operations.stat(path));
				if (existing?.isDirectory) throw describeWriteError({ code: "EISDIR" }, displayPath);
				const created = existing === undefined;
				if (created) await withWriteErrors(displayPath, () => operations.mkdir(dirname(path)));
				throwIfAborted(signal);
				await withWriteErrors(displayPath, () => operations.writeFileAtomic(path, data));
				const details: WriteToolDetails = { path, bytes: data.length, created };
				const how = created ? "created" : "overwritten";
				return {
					content: [
						{
							type: "text",
							text: `Wrote ${data.length} byte${data.length === 1 ? "" : "s"} to ${displayPath} (${how}).`,
						},
					],
					details,
					structuredContent: { path, bytes: data.length, created },
				};
			});
		},
		renderCall(args, theme) {
			const content = typeof args?.content === "string" ? args.content : "";
			const lines = content === "" ? 0 : content.split("\n").length;
			return `${theme.bold("write")} ${theme.accent(String(args?.path ?? ""))}${theme.muted(` (${lines} line${lines === 1 ? "" : "s"})`)}`;
		},
		renderResult(result, { expanded }, theme) {
			const text = resultText(result);
			return result.isError ? renderErrorResult(text, expanded, theme) : theme.success(text);
		},
	});
}
