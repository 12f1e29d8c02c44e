// Types the search code (walk, grep's built-in engine) shares, whatever file system it reads.

/** Kinds of directory entries the search tools tell apart. Links are not followed. */
export type SearchEntryKind = "file" | "directory" | "symlink" | "other";

/** One entry of a folder listing. */
export interface SearchEntry {
	name: string;
	kind: SearchEntryKind;
}

/** An open file read from start to end. */
export interface SearchFileReader {
	/**
	 * Reads up to `length` bytes at the current position into `buffer` at `offset`; resolves to the count,
	 * 0 only at the end of the file. May throw.
	 */
	read(buffer: Buffer, offset: number, length: number): Promise<number>;
	/** Releases the file. Called once. */
	close(): Promise<void>;
}
