import { type Static, Type } from "@sinclair/typebox";

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
	/** A device, socket or named pipe (neither a regular file nor a folder): write refuses to replace it. */
	isSpecial?: boolean;
	/**
	 * Size and modification time, when known: a file that changed since the model read it is not overwritten
	 * (the model would be replacing content it never saw).
	 */
	size?: number;
	mtimeMs?: number;
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

export interface WriteToolOptions {
	/** Where the file I/O goes. Default `localWriteOperations`. */
	operations?: WriteOperations;
}
