import { type ShellSyntaxNode, withBashSyntaxTree } from "./bash-parser.js";
import { readShellWord, type ShellWord } from "./shell-words.js";

export type { ShellWord } from "./shell-words.js";

/** One simple command of a shell line: its words (assignment prefixes first) and its source text. */
export interface ShellSimpleCommand {
	words: ShellWord[];
	text: string;
}

/** What the bash parser found in a command line. */
export interface ShellCommandAnalysis {
	/** False when the line does not parse as bash (or is too long to judge); `commands` may then be partial. */
	parsed: boolean;
	/** Every simple command in the line, those inside substitutions included, in source order. */
	commands: ShellSimpleCommand[];
	/**
	 * Why no allow rule may match the line, in words (`command substitution $(touch F)`, `redirection to a
	 * file (> F)`…); empty when the line is only simple commands joined by `;`, `&&`, `||`, `|` or newlines.
	 */
	problems: string[];
}

/** Lines longer than this are not parsed: they can be allowed by no command rule. */
export const MAX_JUDGED_COMMAND_CHARS = 100_000;

/** Builtins that run a string or a file as shell code, or replace the shell. */
const RUNS_CODE = new Set(["eval", "source", ".", "exec", "trap"]);
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

function clip(text: string, limit = 80): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

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
		};
	}
	return withBashSyntaxTree(command, (root) => {
		const analysis: ShellCommandAnalysis = { parsed: !root.hasError, commands: [], problems: [] };
		if (root.hasError) analysis.problems.push("the command does not parse as bash");
		collect(root, analysis);
		judgeStatement(root, analysis.problems);
		analysis.problems = [...new Set(analysis.problems)];
		return analysis;
	});
}

/** Every simple command and every substitution anywhere in the tree. */
function collect(node: ShellSyntaxNode, analysis: ShellCommandAnalysis): void {
	const substitution = SUBSTITUTIONS[node.type];
	if (substitution) analysis.problems.push(`${substitution} ${clip(node.text)}`);
	if (node.type === "command") analysis.commands.push({ words: commandWords(node), text: node.text.trim() });
	if (node.type === "expansion" && childrenOf(node).some((child) => !PLAIN_EXPANSION.has(child.type))) {
		analysis.problems.push(`a parameter expansion with an operator ${clip(node.text)}`);
	}
	for (const child of childrenOf(node)) collect(child, analysis);
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
