import { errorText } from "@gantry/ai";
/** A grep pattern compiled for the built-in engine. */
export interface CompiledPattern {
	/** Set for a case-sensitive literal: every line containing it matches, and files are pre-screened by bytes. */
	literal?: string;
	/** UTF-8 bytes of `literal`, for a fast byte search before any decoding. */
	literalBytes?: Buffer;
	/** Finds candidate positions in a run of whole lines (flags `gm`); each candidate is confirmed on its line. */
	scan: RegExp;
	/** Tests one line (without its line break). */
	line: RegExp;
	/** True when no line can match (a literal holding a line break). */
	never: boolean;
}

export interface PatternOptions {
	pattern: string;
	/** Match the pattern as plain text. */
	literal: boolean;
	/** Case-insensitive matching (Unicode simple case folding). */
	ignoreCase: boolean;
}

/** Escapes every regular-expression metacharacter. */
export function escapeRegExp(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

function compile(source: string, flags: string): RegExp {
	// Unicode mode first (for \p{...} and case folding beyond ASCII); patterns it rejects, such as
	// escaped punctuation like `\-` outside a class, are tried without it.
	try {
		return new RegExp(source, `${flags}u`);
	} catch {
		return new RegExp(source, flags);
	}
}

/**
 * Compiles a grep pattern. Throws an Error that says what is wrong (and how to search for the text
 * as is) when the regular expression is invalid.
 */
export function compilePattern(options: PatternOptions): CompiledPattern {
	const { pattern, literal, ignoreCase } = options;
	const source = literal ? escapeRegExp(pattern) : pattern;
	const flags = ignoreCase ? "i" : "";
	let line: RegExp;
	try {
		line = compile(source, `m${flags}`);
	} catch (error) {
		// V8 says "Invalid regular expression: /(a/m: Unterminated group"; keep only the reason.
		const reason = errorText(error).replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, "");
		throw new Error(
			`Invalid regular expression ${JSON.stringify(pattern)}: ${reason}. Use literal: true to search for the text as is.`,
		);
	}
	const scan = new RegExp(line.source, `g${line.flags}`);
	const never = literal && pattern.includes("\n");
	if (literal && !ignoreCase)
		return { literal: pattern, literalBytes: Buffer.from(pattern, "utf8"), scan, line, never };
	return { scan, line, never };
}
