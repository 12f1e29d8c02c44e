import type { ShellSyntaxNode } from "./bash-parser.js";

/**
 * A word of a simple command. `literal` words are known before the shell runs (quotes and escapes
 * removed: `"npm"`, `np\m` and `npm` are all `npm`); any other word (`$x`, `"a $b"`, `$'\n'`) keeps its
 * source text and never equals a literal word.
 */
export interface ShellWord {
	text: string;
	literal: boolean;
	/**
	 * Present (true) when the word has unquoted glob characters (`*`, `?`, `[`) or a brace expansion
	 * (`{a,b}`, `{1..3}`): bash may turn it into other words, so `/bin/r?` or `rm{,}` is not the text shown.
	 */
	expands?: true;
}

/** `\x` becomes `x`, and a backslash-newline (a line continuation) disappears (an unquoted word's escapes). */
function unescapeWord(text: string): string {
	return text.replace(/\\([\s\S])/g, (_match, character: string) => (character === "\n" ? "" : character));
}

/** Inside double quotes only `\$`, `` \` ``, `\"`, `\\` and a backslash-newline are escapes. */
function unescapeDoubleQuoted(text: string): string {
	return text.replace(/\\([$`"\\\n])/g, (_match, character: string) => (character === "\n" ? "" : character));
}

/** An unquoted word's text with escaped characters blanked, so only the characters bash acts on remain. */
function activeCharacters(text: string): string {
	return text.replace(/\\[\s\S]/g, "__");
}

const GLOB = /[*?[]/;

/**
 * Whether the text holds `{a,b}` or `{x..y}` with unquoted braces and separator (quoted parts are
 * blanked before): a brace pair with no brace between them and a `,` or `..` inside. One pass.
 */
function hasBraceExpansion(text: string): boolean {
	let open = -1;
	let separated = false;
	for (let index = 0; index < text.length; index++) {
		const character = text[index];
		if (character === "{") {
			open = index;
			separated = false;
		} else if (open !== -1 && (character === "," || (character === "." && text[index + 1] === "."))) separated = true;
		else if (character === "}" && open !== -1) {
			if (separated) return true;
			open = -1;
		}
	}
	return false;
}

/** Whether bash would expand the word (see `ShellWord.expands`); quoted parts never expand. */
function expandsOf(node: ShellSyntaxNode): boolean {
	if (node.type === "word") {
		const active = activeCharacters(node.text);
		return GLOB.test(active) || hasBraceExpansion(active);
	}
	if (node.type !== "concatenation") return false;
	let unquoted = "";
	for (const part of node.children) {
		if (part === null) continue;
		if (part.type === "word") unquoted += activeCharacters(part.text);
		else unquoted += "_".repeat(part.text.length);
	}
	return GLOB.test(unquoted) || hasBraceExpansion(unquoted);
}

/** The word a syntax node stands for (see {@link ShellWord}). */
export function readShellWord(node: ShellSyntaxNode): ShellWord {
	const word = readWord(node);
	return word.literal && expandsOf(node) ? { ...word, expands: true } : word;
}

function readWord(node: ShellSyntaxNode): ShellWord {
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
			const parts = node.children.filter((child) => child !== null).map(readWord);
			if (parts.some((part) => !part.literal)) return opaque;
			return { text: parts.map((part) => part.text).join(""), literal: true };
		}
		case "variable_assignment": {
			const value = node.namedChildren
				.filter((child) => child !== null)
				.find((child) => child.type !== "variable_name");
			const name = node.text.slice(0, node.text.indexOf("="));
			if (!value) return { text: `${name}=`, literal: true };
			const read = readWord(value);
			return read.literal ? { text: `${name}=${read.text}`, literal: true } : opaque;
		}
		default:
			return opaque;
	}
}
