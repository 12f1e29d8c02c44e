import type { ShellSyntaxNode } from "./bash-parser.js";
import { changesWhatRuns, isHarmlessAssignment } from "./shell-environment.js";

/** What the walk over a line noticed that can make bash run code no simple command of the parse shows. */
export interface ShellRiskNotes {
	/** Variables assigned anywhere: `X=1 cmd`, `X=1`, `export X=1`, `declare X=1`. */
	assigned: Set<string>;
	/** An arithmetic context: `$((…))`, `((…))`, `let`, `declare -i`, an array subscript, `[[ a -eq b ]]`. */
	arithmetic: string | undefined;
	/** Data that can hold code: a substitution, `read`/`mapfile`, or a quoted text holding `$(` or a backquote. */
	codeData: string | undefined;
}

export function newRiskNotes(): ShellRiskNotes {
	return { assigned: new Set(), arithmetic: undefined, codeData: undefined };
}

const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge"]);
const READS_DATA = new Set(["read", "mapfile", "readarray"]);
const NAMES_VARIABLES = new Set([
	"printf",
	"read",
	"unset",
	"mapfile",
	"readarray",
	"wait",
	"test",
	"[",
	"getopts",
	"let",
]);

function firstWord(node: ShellSyntaxNode): string | undefined {
	return node.childForFieldName("name")?.text ?? node.namedChildren[0]?.text;
}

/** Records what `node` (one node of the walk, not its children) contributes to the notes. */
export function noteRisks(node: ShellSyntaxNode, notes: ShellRiskNotes): void {
	switch (node.type) {
		case "variable_assignment": {
			const name = node.namedChildren[0];
			const value = node.text.slice(node.text.indexOf("=") + 1);
			if (name?.type === "variable_name" && !isHarmlessAssignment(name.text, value)) notes.assigned.add(name.text);
			else if (name?.type === "subscript") {
				notes.arithmetic ??= node.text;
				const array = name.namedChildren[0];
				if (array) notes.assigned.add(array.text);
			}
			return;
		}
		case "arithmetic_expansion":
		case "c_style_for_statement":
		case "subscript":
			notes.arithmetic ??= node.text;
			return;
		case "compound_statement":
			if (node.children[0]?.type === "((") notes.arithmetic ??= node.text;
			return;
		case "test_operator":
			if ((ARITHMETIC_TESTS.has(node.text) || node.text === "-v") && node.parent?.parent?.type === "test_command") {
				notes.arithmetic ??= node.text;
			}
			return;
		case "command": {
			const name = firstWord(node);
			if (name === "let") notes.arithmetic ??= node.text;
			// Builtins that take variable names evaluate an array subscript in one (`printf -v 'a[$(…)]'`).
			if (
				name !== undefined &&
				NAMES_VARIABLES.has(name) &&
				node.namedChildren.slice(1).some((child) => child?.text.includes("["))
			) {
				notes.arithmetic ??= node.text;
			}
			if (name !== undefined && READS_DATA.has(name)) notes.codeData ??= node.text;
			return;
		}
		case "declaration_command":
			if (
				node.namedChildren.some(
					(child) => (child?.type === "word" && /^-[a-zA-Z]*i/.test(child.text)) || child?.text.includes("["),
				)
			) {
				notes.arithmetic ??= node.text;
			}
			return;
		case "command_substitution":
		case "process_substitution":
			notes.codeData ??= node.text;
			return;
		case "raw_string":
		case "string_content":
		case "heredoc_content":
		case "heredoc_body":
		case "ansi_c_string":
			if (/\$\(|`/.test(node.text)) notes.codeData ??= node.text;
			return;
		default:
	}
}

function clip(text: string, limit = 60): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** Why the notes keep deny rules on commands from vouching for the line (empty when nothing does). */
export function risksOf(notes: ShellRiskNotes): string[] {
	const reasons: string[] = [];
	for (const name of notes.assigned) {
		if (changesWhatRuns(name))
			reasons.push(`an assignment to ${name}, which changes what programs run or what bash runs by itself`);
	}
	if (notes.arithmetic !== undefined && notes.codeData !== undefined) {
		reasons.push(
			`arithmetic (${clip(notes.arithmetic)}) beside data that can hold code (${clip(notes.codeData)}): bash runs substitutions found in array subscripts`,
		);
	}
	return reasons;
}
