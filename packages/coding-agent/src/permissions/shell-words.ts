import type { ShellSyntaxNode } from "./bash-parser.js";

/**
 * A word of a simple command. `literal` words are known before the shell runs (quotes and escapes
 * removed: `"npm"`, `np\m` and `npm` are all `npm`); any other word (`$x`, `"a $b"`, `$'\n'`) keeps its
 * source text and never equals a literal word.
 */
export interface ShellWord {
	text: string;
	literal: boolean;
}

/** `\x` becomes `x` (an unquoted word's escapes). */
function unescapeWord(text: string): string {
	return text.replace(/\\([\s\S])/g, "$1");
}

/** Inside double quotes only `\$`, `` \` ``, `\"`, `\\` and a backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
	return text.replace(/\\([$`"\\\n])/g, (_match, character: string) => (character === "\n" ? "" : character));
}

/** The word a syntax node stands for (see {@link ShellWord}). */
export function readShellWord(node: ShellSyntaxNode): ShellWord {
	const opaque = { text: node.text, literal: false };
	switch (node.type) {
		case "word":
			return { text: unescapeWord(node.text), literal: true };
		case "number":
			return { text: node.text, literal: true };
		case "raw_string":
			return { text: node.text.slice(1, -1), literal: true };
		case "ansi_c_string":
			return node.text.includes("\\") ? opaque : { text: node.text.slice(2, -1), literal: true };
		case "string": {
			const parts = node.namedChildren.filter((child) => child !== null);
			if (parts.some((part) => part.type !== "string_content")) return opaque;
			return { text: unescapeDoubleQuoted(node.text.slice(1, -1)), literal: true };
		}
		case "concatenation": {
			const parts = node.children.filter((child) => child !== null).map(readShellWord);
			if (parts.some((part) => !part.literal)) return opaque;
			return { text: parts.map((part) => part.text).join(""), literal: true };
		}
		case "variable_assignment": {
			const value = node.namedChildren
				.filter((child) => child !== null)
				.find((child) => child.type !== "variable_name");
			const name = node.text.slice(0, node.text.indexOf("="));
			if (!value) return { text: `${name}=`, literal: true };
			const read = readShellWord(value);
			return read.literal ? { text: `${name}=${read.text}`, literal: true } : opaque;
		}
		default:
			return opaque;
	}
}
