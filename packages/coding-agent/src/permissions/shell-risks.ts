import type { ShellSyntaxNode } from "./bash-parser.js";
import { changesWhatRuns, isHarmlessAssignment } from "./shell-environment.js";
import { clip } from "./shell-text.js";

/** What the walk over a line noticed that can make bash run code no simple command of the parse shows. */
export interface ShellRiskNotes {
	/** Variables assigned anywhere: `X=1 cmd`, `X=1`, `export X=1`, `declare X=1` (harmless ones left out). */
	assigned: Set<string>;
	/**
	 * A place where bash evaluates text as code: arithmetic (`$((…))`, `((…))`, `let`, `declare -i`, an
	 * array subscript, `[[ a -eq b ]]`), a variable name it looks up (`${!x}`, `[[ -v $x ]]`, `printf -v`,
	 * `read`, `unset`, `declare -n`), or prompt expansion (`${x@P}`). A `$(…)` in such text runs.
	 */
	evaluates: string | undefined;
	/** Data that can hold code: a substitution, `read`/`mapfile`, or a quoted text holding `$(` or a backquote. */
	codeData: string | undefined;
}

export function newRiskNotes(): ShellRiskNotes {
	return { assigned: new Set(), evaluates: undefined, codeData: undefined };
}

const ARITHMETIC_TESTS = new Set(["-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-v", "-R"]);
const READS_DATA = new Set(["read", "mapfile", "readarray"]);
/** Builtins that take variable names (an array subscript in one is evaluated), and the option that says so. */
const NAMES_VARIABLES: Record<string, string | undefined> = {
	read: undefined,
	unset: undefined,
	mapfile: undefined,
	readarray: undefined,
	getopts: undefined,
	let: undefined,
	printf: "-v",
	wait: "-p",
	test: "-v",
	"[": "-v",
};
const PLAIN_TEXT = new Set(["word", "raw_string", "number", "variable_name", "file_descriptor"]);

/** Whether a word node is known text: no expansion, and no `[` that a name lookup would take as a subscript. */
function isPlainName(node: ShellSyntaxNode): boolean {
	if (node.text.includes("[")) return false;
	if (PLAIN_TEXT.has(node.type)) return true;
	return node.type === "string" && node.namedChildren.every((part) => part?.type === "string_content");
}

function argumentsOf(node: ShellSyntaxNode): ShellSyntaxNode[] {
	return node.namedChildren.slice(1).filter((child): child is ShellSyntaxNode => child !== null);
}

function noteCommand(node: ShellSyntaxNode, notes: ShellRiskNotes): void {
	const name = node.childForFieldName("name")?.text ?? node.namedChildren[0]?.text;
	if (name === undefined) return;
	if (READS_DATA.has(name)) notes.codeData ??= node.text;
	if (!Object.hasOwn(NAMES_VARIABLES, name)) return;
	const option = NAMES_VARIABLES[name];
	const args = argumentsOf(node);
	if (option !== undefined && !args.some((arg) => arg.text === option)) return;
	if (name === "let" || args.some((arg) => !isPlainName(arg))) notes.evaluates ??= node.text;
}

/** Records what `node` (one node of the walk, not its children) contributes to the notes. */
export function noteRisks(node: ShellSyntaxNode, notes: ShellRiskNotes): void {
	switch (node.type) {
		case "variable_assignment": {
			const name = node.namedChildren[0];
			const value = node.text.slice(node.text.indexOf("=") + 1);
			if (name?.type === "variable_name" && !isHarmlessAssignment(name.text, value)) notes.assigned.add(name.text);
			else if (name?.type === "subscript") {
				notes.evaluates ??= node.text;
				const array = name.namedChildren[0];
				if (array) notes.assigned.add(array.text);
			}
			return;
		}
		case "arithmetic_expansion":
		case "c_style_for_statement":
		case "subscript":
			notes.evaluates ??= node.text;
			return;
		case "compound_statement":
			if (node.children[0]?.type === "((") notes.evaluates ??= node.text;
			return;
		case "expansion":
			// `${!x}` looks a name up, `${x@P}` expands a prompt: both evaluate what the variable holds.
			if (node.children.some((child) => child?.type === "!" || child?.type === "@")) notes.evaluates ??= node.text;
			return;
		case "test_operator":
			if (ARITHMETIC_TESTS.has(node.text) && node.parent?.parent?.type === "test_command")
				notes.evaluates ??= node.text;
			return;
		case "command":
			noteCommand(node, notes);
			return;
		case "declaration_command":
			// `declare -i`/`-n` evaluate values and names; a name to declare may come from an expansion.
			if (
				node.namedChildren.some((arg) =>
					arg === null
						? false
						: arg.type === "word"
							? /^-[a-zA-Z]*[in]/.test(arg.text) || arg.text.includes("[")
							: arg.type !== "variable_assignment" && !isPlainName(arg),
				)
			) {
				notes.evaluates ??= node.text;
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

/** Why the notes keep deny rules on commands from vouching for the line (empty when nothing does). */
export function risksOf(notes: ShellRiskNotes): string[] {
	const reasons: string[] = [];
	for (const name of notes.assigned) {
		if (changesWhatRuns(name)) {
			reasons.push(`an assignment to ${name}, which changes what programs run or what bash runs by itself`);
		}
	}
	if (notes.evaluates !== undefined && notes.codeData !== undefined) {
		reasons.push(
			`text bash evaluates (${clip(notes.evaluates)}) beside data that can hold code (${clip(notes.codeData)}): a $(…) in it would run`,
		);
	}
	return reasons;
}
