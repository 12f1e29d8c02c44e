/** Reads what the ignore rules need. Both methods resolve (never reject) for a missing file. */
export interface IgnoreFileReader {
	/** The text of the file at `path`, or undefined when it does not exist or cannot be read. */
	readText(path: string): Promise<string | undefined>;
	/** Whether anything (file or folder) exists at `path`. */
	exists(path: string): Promise<boolean>;
}

/** Reads ignore files synchronously (the local disk): both methods return, never throw, for a missing file. */
export interface IgnoreFileReaderSync {
	/** The text of the file at `path`, or undefined when it does not exist or cannot be read. */
	readText(path: string): string | undefined;
	/** Whether anything (file or folder) exists at `path`. */
	exists(path: string): boolean;
}
