import { type BashSyntaxVisitor, loadBashSyntax, type ShellSyntaxNode } from "./bash-parser.js";
import { readHeredoc } from "./shell-heredoc.js";
import { newRiskNotes, noteRisks, risksOf, type ShellRiskNotes } from "./shell-risks.js";
import { clip } from "./shell-text.js";
import { readShellWord, type ShellWord } from "./shell-words.js";

export type { ShellWord } from "./shell-words.js";

/** One simple command of a shell line: its words (assignment prefixes first) and its source text. */
export interface ShellSimpleCommand {
	words: ShellWord[];
	text: string;
}

/** A redirection to or from a file (`> F`, `>> F`, `< F`, `&> F`, `2>&1`…); here-documents are not listed. */
export interface ShellRedirect {
	/** The operator as written: `>`, `>>`, `<`, `&>`, `>&`, `<>`, `>|`… */
	operator: string;
	/** The descriptor before the operator (`2` in `2> F`), when one is written. */
	descriptor?: string;
	/** The file (or descriptor, for `>&`) the redirection names. */
	target: ShellWord;
}

/** What the bash parser found in a command line. */
export interface ShellCommandAnalysis {
	/**
	 * False when the line does not parse as bash, is too long to judge, or holds something whose extent
	 * bash and the parse may disagree on (a here-document whose delimiter is not a plain word, a line
	 * continuation inside a word): `commands` may then miss what bash runs.
	 */
	parsed: boolean;
	/** Every simple command in the line, those inside substitutions included, in source order. */
	commands: ShellSimpleCommand[];
	/**
	 * Why no allow rule may match the line, in words (`command substitution $(touch F)`, `redirection to a
	 * file (> F)`…); empty when the line is only simple commands joined by `;`, `&&`, `||`, `|` or newlines.
	 */
	problems: string[];
	/** Every redirection to or from a file anywhere in the line, in source order. */
	redirects: ShellRedirect[];
	/**
	 * Why deny rules on commands cannot be sure the parse shows everything the line runs, found in its
	 * structure: an assignment to `PATH`, `BASH_ENV`, `PS4`, `BASH_FUNC_…` and the like, or arithmetic
	 * beside data that can hold code (bash runs `$(…)` found in an array subscript). What the commands
	 * themselves hide (`eval`, `xargs`, `find -exec`, a name from an expansion) is judged with the rules.
	 */
	uncheckable: string[];
}

/** Lines longer than this are not parsed: they can be allowed by no command rule. */
export const MAX_JUDGED_COMMAND_CHARS = 100_000;

/** Builtins that run a string or a file as shell code, or replace the shell. */
const RUNS_CODE = new Set(["eval", "source", ".", "exec", "trap"]);
/** Words bash reserves: as the name of a simple command in the parse, they mean the parse went wrong. */
const RESERVED_WORDS = new Set([
	"{",
	"}",
	"!",
	"[[",
	"]]",
	"then",
	"do",
	"done",
	"fi",
	"esac",
	"elif",
	"else",
	"in",
	"function",
	"select",
	"case",
	"if",
	"while",
	"until",
	"for",
]);
/** Node types that only group statements: their statements are judged one by one. */
const GROUPS = new Set(["program", "list", "pipeline", "subshell", "compound_statement", "negated_command"]);
const SEPARATORS = new Set([";", ";;", "&&", "||", "|", "|&", "(", ")", "{", "}", "!", "\n"]);
const SUBSTITUTIONS: Record<string, string> = {
	command_substitution: "command substitution",
	process_substitution: "process substitution",
	arithmetic_expansion: "arithmetic expansion (it can run code through array subscripts)",
};
/** The parts of `${name}`; anything else (`${x:-y}`, `${x@P}`, `${!x}`) is an operator. */
const PLAIN_EXPANSION = new Set(["${", "}", "variable_name"]);
const WORD_TYPES = new Set([
	"word",
	"number",
	"raw_string",
	"string",
	"string_content",
	"concatenation",
	"simple_expansion",
	"expansion",
	"ansi_c_string",
	"translated_string",
	"variable_name",
]);

function describeNode(node: ShellSyntaxNode): string {
	const name = node.type.replace(/_/g, " ");
	return `${/^[aeiou]/.test(name) ? "an" : "a"} ${name} (${clip(node.text)})`;
}

function childrenOf(node: ShellSyntaxNode): ShellSyntaxNode[] {
	return node.children.filter((child): child is ShellSyntaxNode => child !== null);
}

/**
 * Parses a bash command line with tree-sitter's bash grammar and lists its simple commands and every
 * construct that would let something other than those commands run or write: substitutions, redirections
 * to files other than `/dev/null` (fd duplication such as `2>&1` is fine), background `&`, `eval`,
 * `source`, `.`, `exec` and `trap`, variable assignments on their own, parameter expansions with
 * operators, and any compound statement other than grouping (`if`, `for`, functions…).
 */
export async function analyzeShellCommand(command: string): Promise<ShellCommandAnalysis> {
	if (command.length > MAX_JUDGED_COMMAND_CHARS) {
		return {
			parsed: false,
			commands: [],
			problems: [`the command is too long to judge (${command.length} characters)`],
			redirects: [],
			uncheckable: [],
		};
	}
	const parse = await loadBashSyntax();
	const analysis: ShellCommandAnalysis = { parsed: true, commands: [], problems: [], redirects: [], uncheckable: [] };
	const notes = newRiskNotes();
	analyzeSource(parse, command, analysis, notes, 0);
	analysis.problems = [...new Set(analysis.problems)];
	analysis.uncheckable = risksOf(notes);
	return analysis;
}

/** Code found inside code (a backquoted substitution in a here-document) is parsed at most this deep. */
const MAX_NESTED_SOURCES = 8;

function analyzeSource(
	parse: BashSyntaxVisitor,
	source: string,
	analysis: ShellCommandAnalysis,
	notes: ShellRiskNotes,
	depth: number,
): void {
	const nested = parse(source, (root) => {
		if (root.hasError) {
			analysis.parsed = false;
			analysis.problems.push("the command does not parse as bash");
		}
		const continuation = continuationInsideWord(root, source);
		if (continuation) {
			analysis.parsed = false;
			analysis.problems.push(continuation);
		}
		const found: string[] = [];
		collect(root, { source, analysis, notes, nested: found });
		judgeStatement(root, analysis.problems);
		return found;
	});
	for (const code of nested) {
		if (depth >= MAX_NESTED_SOURCES) {
			analysis.parsed = false;
			analysis.problems.push("substitutions nested too deeply to judge");
			return;
		}
		analyzeSource(parse, code, analysis, notes, depth + 1);
	}
}

/**
 * A backslash-newline joins lines before bash splits words, so `r\⏎m x` runs `rm x`; tree-sitter splits
 * the word there instead. Between words, in quotes and in comments it is harmless.
 */
function continuationInsideWord(root: ShellSyntaxNode, source: string): string | undefined {
	const continuation = /(?<!\\)(?:\\\\)*\\\n/g;
	for (const match of source.matchAll(continuation)) {
		const at = match.index + match[0].length - 2;
		const before = source[at - 1] ?? " ";
		const after = source[at + 2] ?? " ";
		if (/\s/.test(before) || /\s/.test(after)) continue;
		const inner = root.descendantForIndex(at, at + 1);
		if (inner && QUOTED_TEXT.has(inner.type)) continue;
		return "a line continuation (a backslash and a newline) inside a word, which bash joins and the parse splits";
	}
	return undefined;
}

/** Node types whose text is quoted or inert, where a backslash-newline is not a word break. */
const QUOTED_TEXT = new Set(["raw_string", "string", "string_content", "comment", "heredoc_body", "heredoc_content"]);

/** What `collect` fills: the analysis, the risk notes, and code found in here-documents (parsed afterwards). */
interface Collection {
	source: string;
	analysis: ShellCommandAnalysis;
	notes: ShellRiskNotes;
	nested: string[];
}

/** Every simple command, redirection and substitution anywhere in the tree. */
function collect(node: ShellSyntaxNode, collection: Collection): void {
	const { source, analysis, nested } = collection;
	noteRisks(node, collection.notes);
	const substitution = SUBSTITUTIONS[node.type];
	if (substitution) analysis.problems.push(`${substitution} ${clip(node.text)}`);
	if (node.type === "command") {
		const words = commandWords(node);
		analysis.commands.push({ words, text: node.text.trim() });
		const name = childrenOf(node).find((child) => child.type === "command_name")?.text;
		if (name !== undefined && RESERVED_WORDS.has(name)) {
			// tree-sitter reads `! { rm x; }` and `coproc { rm x; }` as a command named `{`; bash does not.
			analysis.parsed = false;
			analysis.problems.push(`the parse took the reserved word ${name} for a command name, which bash reads otherwise`);
		}
	}
	// Backquotes inside backquotes (`` `echo \`rm x\`` ``) are a substitution bash runs and tree-sitter does not parse.
	if (node.type === "command_substitution" && node.text.startsWith("`") && node.text.includes("\\`")) {
		nested.push(node.text.slice(1, -1).replace(/\\([\\`$])/g, "$1"));
	}
	if (node.type === "expansion" && childrenOf(node).some((child) => !PLAIN_EXPANSION.has(child.type))) {
		analysis.problems.push(`a parameter expansion with an operator ${clip(node.text)}`);
	}
	if (node.type === "file_redirect") {
		const redirect = fileRedirectOf(node);
		if (redirect) analysis.redirects.push(redirect);
	}
	if (node.type === "heredoc_redirect") {
		const reading = readHeredoc(node, source);
		if ("unjudgeable" in reading) {
			analysis.parsed = false;
			analysis.problems.push(reading.unjudgeable);
		} else {
			for (const code of reading.backtickCode) {
				analysis.problems.push(`command substitution \`${clip(code)}\` in a here-document`);
				nested.push(code);
			}
		}
	}
	for (const child of childrenOf(node)) collect(child, collection);
}

function fileRedirectOf(node: ShellSyntaxNode): ShellRedirect | undefined {
	const children = childrenOf(node);
	const operator = children.find((child) => !child.isNamed)?.type;
	const descriptor = children.find((child) => child.type === "file_descriptor")?.text;
	const target = children.find((child) => child.isNamed && child.type !== "file_descriptor");
	if (operator === undefined || target === undefined) return undefined;
	return { operator, target: readShellWord(target), ...(descriptor === undefined ? {} : { descriptor }) };
}

function commandWords(node: ShellSyntaxNode): ShellWord[] {
	const words: ShellWord[] = [];
	for (const child of childrenOf(node)) {
		if (child.type === "variable_assignment") words.push(readShellWord(child));
		else if (child.type === "command_name") words.push(...childrenOf(child).map(readShellWord));
		else if (child.isNamed && !child.type.endsWith("_redirect")) words.push(readShellWord(child));
	}
	return words;
}

/** Checks the structure: only grouping, simple commands and harmless redirections. */
function judgeStatement(node: ShellSyntaxNode, problems: string[]): void {
	if (GROUPS.has(node.type)) {
		for (const child of childrenOf(node)) {
			if (child.type === "&") problems.push("a command runs in the background (&)");
			else if (child.isNamed) judgeStatement(child, problems);
			else if (!SEPARATORS.has(child.type)) problems.push(`the operator ${child.type}`);
		}
		return;
	}
	switch (node.type) {
		case "comment":
		case "ERROR":
			return;
		case "command":
			judgeCommand(node, problems);
			return;
		case "redirected_statement":
			for (const child of childrenOf(node)) {
				if (child.type.endsWith("_redirect")) judgeRedirect(child, problems);
				else if (child.isNamed) judgeStatement(child, problems);
			}
			return;
		case "variable_assignment":
		case "variable_assignments":
			problems.push(`a variable assignment on its own (${clip(node.text)})`);
			return;
		default:
			problems.push(`${describeNode(node)}, which no rule judges`);
	}
}

function judgeCommand(node: ShellSyntaxNode, problems: string[]): void {
	for (const child of childrenOf(node)) {
		if (child.type.endsWith("_redirect")) judgeRedirect(child, problems);
		else if (child.type === "command_name") {
			const name = childrenOf(child)[0];
			if (!name || !readShellWord(name).literal)
				problems.push(`the command name comes from an expansion (${clip(child.text)})`);
		} else if (child.isNamed) judgeWord(child, problems);
	}
	const words = commandWords(node).filter((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word.text));
	const [first, second] = words;
	const wrapped = first && (first.text === "builtin" || first.text === "command") ? second : first;
	if (wrapped && RUNS_CODE.has(wrapped.text)) problems.push(`\`${wrapped.text}\` runs other shell code`);
}

function judgeWord(node: ShellSyntaxNode, problems: string[]): void {
	if (SUBSTITUTIONS[node.type]) return; // reported by collect
	if (node.type === "variable_assignment") {
		for (const child of childrenOf(node))
			if (child.isNamed && child.type !== "variable_name") judgeWord(child, problems);
		return;
	}
	if (!WORD_TYPES.has(node.type)) {
		problems.push(`${describeNode(node)}, which no rule judges`);
		return;
	}
	for (const child of childrenOf(node)) if (child.isNamed) judgeWord(child, problems);
}

function judgeRedirect(node: ShellSyntaxNode, problems: string[]): void {
	const children = childrenOf(node);
	if (node.type === "heredoc_redirect") {
		for (const child of children) if (child.type.endsWith("_redirect")) judgeRedirect(child, problems);
		return;
	}
	if (node.type === "herestring_redirect") {
		for (const child of children) if (child.isNamed) judgeWord(child, problems);
		return;
	}
	const operator = children.find((child) => !child.isNamed)?.type ?? "";
	const targets = children.filter((child) => child.isNamed && child.type !== "file_descriptor");
	if (targets.length > 1) {
		problems.push(`words after a redirection (${clip(node.text)}); put redirections last`);
		return;
	}
	const target = targets[0];
	if (!target) return; // `>&-` closes a descriptor
	judgeWord(target, problems);
	const word = readShellWord(target);
	const duplicates = (operator === ">&" || operator === "<&") && /^(\d+|-)$/.test(word.text) && word.literal;
	if (duplicates || (word.literal && word.text === "/dev/null") || (operator === "<" && word.literal)) return;
	problems.push(`a redirection to a file (${clip(node.text)})`);
}
