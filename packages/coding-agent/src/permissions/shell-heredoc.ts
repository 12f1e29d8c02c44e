import type { ShellSyntaxNode } from "./bash-parser.js";
import { clip } from "./shell-text.js";

/** What a here-document means to the judge. */
export type HeredocReading =
	/** Where bash ends it cannot be told from the parse: the line may run commands the parse hides. */
	| { unjudgeable: string }
	/**
	 * The body is data. An unquoted delimiter's body is expanded by bash: `backtickCode` holds the code of
	 * each `` `…` `` substitution in it (tree-sitter parses `$(…)` there, but not backticks).
	 */
	| { quoted: boolean; backtickCode: string[] };

/** A delimiter bash and the parse agree on: a plain word, bare, in single or double quotes, or after `\`. */
const PLAIN_DELIMITER =
	/^(?:([A-Za-z0-9_][A-Za-z0-9_.+-]*)|'([A-Za-z0-9_][A-Za-z0-9_.+-]*)'|"([A-Za-z0-9_][A-Za-z0-9_.+-]*)"|\\([A-Za-z0-9_][A-Za-z0-9_.+-]*))$/;

/**
 * Reads a `heredoc_redirect` node as bash would. Bash removes the quotes of the delimiter word and ends
 * the body at the first line equal to what is left (after leading tabs for `<<-`); tree-sitter compares
 * the word as written, so `<<E""OF` ended by `EOF` hides the lines after it from the parse. Only a plain
 * delimiter is accepted, and the parse's end is checked against bash's rule on the source itself.
 */
export function readHeredoc(node: ShellSyntaxNode, source: string): HeredocReading {
	const children = node.children.filter((child): child is ShellSyntaxNode => child !== null);
	const operator = children.find((child) => !child.isNamed && child.type.startsWith("<<"))?.type;
	const start = children.find((child) => child.type === "heredoc_start");
	const body = children.find((child) => child.type === "heredoc_body");
	const end = children.find((child) => child.type === "heredoc_end");
	if (!start) return { unjudgeable: `a here-document without a delimiter (${clip(node.text)})` };
	const plain = PLAIN_DELIMITER.exec(start.text);
	if (!plain) {
		return {
			unjudgeable: `a here-document whose delimiter is not a plain word (${clip(start.text)}): where bash ends it cannot be told from the parse`,
		};
	}
	const delimiter = plain[1] ?? plain[2] ?? plain[3] ?? plain[4] ?? "";
	const quoted = plain[1] === undefined;
	if (!end || end.text !== delimiter) {
		return { unjudgeable: `a here-document that does not end with its delimiter ${delimiter}` };
	}
	const bodyStart = body?.startIndex ?? end.startIndex;
	const stripTabs = operator === "<<-";
	if (bashEndOf(source, bodyStart, delimiter, stripTabs, !quoted) !== end.startIndex) {
		return {
			unjudgeable: `a here-document (${delimiter}) that bash ends on another line than the parse does`,
		};
	}
	if (quoted || !body) return { quoted, backtickCode: [] };
	const backtickCode = backticksIn(body.text);
	if (backtickCode === undefined) {
		return { unjudgeable: `an unclosed \` in the body of the here-document ${delimiter}` };
	}
	return { quoted, backtickCode };
}

/**
 * Where bash ends a body that starts at `bodyStart` (which must begin a line): the index of the delimiter
 * on the first line that equals it, leading tabs removed for `<<-`. In an unquoted body a backslash at
 * the end of a line joins it to the next before the comparison (`E\` then `OF` ends a body at `EOF`).
 * -1 when no line does.
 */
function bashEndOf(source: string, bodyStart: number, delimiter: string, stripTabs: boolean, joins: boolean): number {
	let lineStart = bodyStart;
	// An empty `<<-` body may be placed after the tabs of the delimiter's line.
	while (stripTabs && source[lineStart - 1] === "\t") lineStart--;
	if (lineStart > 0 && source[lineStart - 1] !== "\n") return -1;
	for (;;) {
		let line = "";
		let next = lineStart;
		for (;;) {
			const newline = source.indexOf("\n", next);
			const piece = source.slice(next, newline === -1 ? source.length : newline);
			next = newline === -1 ? -1 : newline + 1;
			let trailing = 0;
			while (piece[piece.length - 1 - trailing] === "\\") trailing++;
			if (joins && trailing % 2 === 1 && next !== -1) {
				line += piece.slice(0, -1);
				continue;
			}
			line += piece;
			break;
		}
		const content = stripTabs ? line.replace(/^\t+/, "") : line;
		if (content === delimiter) return lineStart + (line.length - content.length);
		if (next === -1) return -1;
		lineStart = next;
	}
}

/**
 * The code inside each `` `…` `` of an unquoted here-document body, with the backslash escapes of
 * backquoted substitution undone; undefined when one is not closed. Quotes are not special in a body.
 */
function backticksIn(body: string): string[] | undefined {
	const found: string[] = [];
	let open: number | undefined;
	for (let index = 0; index < body.length; index++) {
		const character = body[index];
		if (character === "\\") {
			index++;
			continue;
		}
		if (character !== "`") continue;
		if (open === undefined) open = index + 1;
		else {
			found.push(body.slice(open, index).replace(/\\([\\`$])/g, "$1"));
			open = undefined;
		}
	}
	return open === undefined ? found : undefined;
}
