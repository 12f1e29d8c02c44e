/**
 * `sandbox.excludedCommands`, read as Claude Code reads them: each entry names commands that run outside
 * the sandbox (and are then asked about as usual, never auto-allowed). Matching is a convenience, not a
 * boundary: a spelling that escapes an entry only keeps the command inside the sandbox.
 */

/** Wrappers that run the command after them; the command they run is what an entry is compared with. */
const WRAPPERS = new Set(["command", "exec", "nohup", "time", "builtin", "env"]);
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Splits a shell line into the words of its simple commands (roughly: quotes kept together, operators split). */
export function simpleCommandWords(line: string): string[][] {
	const commands: string[][] = [];
	let words: string[] = [];
	let word: string | undefined;
	const endWord = () => {
		if (word !== undefined) words.push(word);
		word = undefined;
	};
	const endCommand = () => {
		endWord();
		if (words.length > 0) commands.push(words);
		words = [];
	};
	for (let index = 0; index < line.length; index++) {
		const character = line.charAt(index);
		if (character === "'" || character === '"') {
			const end = line.indexOf(character, index + 1);
			const stop = end === -1 ? line.length : end;
			word = (word ?? "") + line.slice(index + 1, stop);
			index = stop;
		} else if (character === "\\" && index + 1 < line.length) {
			word = (word ?? "") + line.charAt(++index);
		} else if (/\s/.test(character) && character !== "\n") {
			endWord();
		} else if (";&|\n()`".includes(character) || (character === "$" && line[index + 1] === "(")) {
			endCommand();
			if (character === "$") index++;
		} else {
			word = (word ?? "") + character;
		}
	}
	endCommand();
	return commands.map(stripWrappers).filter((command) => command.length > 0);
}

function stripWrappers(words: string[]): string[] {
	const start = words.findIndex((word) => !ASSIGNMENT.test(word) && !WRAPPERS.has(word));
	return start === -1 ? [] : words.slice(start);
}

function wildcard(pattern: string): RegExp {
	const source = pattern
		.split("*")
		.map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
		.join(".*");
	return new RegExp(`^${source}$`, "s");
}

/** Whether one entry covers one simple command: `docker:*` / `docker` (by words), `npm run *test*` (a wildcard). */
function covers(entry: string, words: string[]): boolean {
	const trimmed = entry.trim();
	const prefix = trimmed.endsWith(":*")
		? trimmed.slice(0, -2)
		: trimmed.endsWith(" *")
			? trimmed.slice(0, -2)
			: trimmed;
	if (prefix.includes("*")) return wildcard(trimmed).test(words.join(" "));
	const wanted = prefix.split(/\s+/).filter(Boolean);
	if (wanted.length === 0 || words.length < wanted.length) return false;
	return wanted.every((part, index) => {
		const word = words[index];
		return word === part || (index === 0 && word !== undefined && basename(word) === part);
	});
}

function basename(word: string): string {
	const slash = word.lastIndexOf("/");
	return slash === -1 ? word : word.slice(slash + 1);
}

/** The entry that excludes one of the line's commands from the sandbox, if any. */
export function excludingEntry(line: string, entries: readonly string[]): string | undefined {
	if (entries.length === 0) return undefined;
	const commands = simpleCommandWords(line);
	return entries.find((entry) => commands.some((words) => covers(entry, words)));
}
