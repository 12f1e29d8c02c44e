import type { ShellWord } from "./shell-words.js";

/** How a program's options are written: those that take a value, and those that do not. */
export interface OptionSpec {
	/** Options that take a value: the next word, or attached (`-uroot`, `--user=root`). */
	withValue?: readonly string[];
	/** Options that take none; short ones may be clustered (`-fn`). */
	flags?: readonly string[];
	/** Long options whose value is optional and only ever attached (`--block-signal[=SIG]`). */
	optionalValue?: readonly string[];
	/** Whether a word such as `-10` is an option (nice's old form). */
	numeric?: boolean;
}

/** Where the operands start after a program's options, and the options seen; or why it cannot be told. */
export type OptionScan = { operands: number; seen: Map<string, string | true> } | { unknown: string };

/**
 * Skips the options at the start of `args` (the words after the program) as `spec` describes them. Stops
 * at the first operand or after `--`. An option the spec does not know, or a word not known before the
 * line runs, makes the rest unknowable: a value it takes could be the command.
 */
export function scanOptions(args: readonly ShellWord[], spec: OptionSpec): OptionScan {
	const withValue = new Set(spec.withValue ?? []);
	const flags = new Set(spec.flags ?? []);
	const optional = new Set(spec.optionalValue ?? []);
	const seen = new Map<string, string | true>();
	let index = 0;
	while (index < args.length) {
		const word = args[index];
		if (word === undefined) break;
		if (!word.literal) return { unknown: `the option ${word.text} is not known before the line runs` };
		const text = word.text;
		if (text === "--") return { operands: index + 1, seen };
		if (!text.startsWith("-") || text === "-") return { operands: index, seen };
		if (spec.numeric === true && /^-\d+$/.test(text)) {
			seen.set("-n", text.slice(1));
			index++;
			continue;
		}
		if (text.startsWith("--")) {
			const equals = text.indexOf("=");
			const name = equals === -1 ? text : text.slice(0, equals);
			if (withValue.has(name)) {
				const value = equals === -1 ? args[index + 1] : { text: text.slice(equals + 1), literal: true };
				if (value === undefined) return { unknown: `${name} has no value` };
				if (!value.literal) return { unknown: `the value of ${name} is not known before the line runs` };
				seen.set(name, value.text);
				index += equals === -1 ? 2 : 1;
			} else if (flags.has(name) || optional.has(name)) {
				seen.set(name, equals === -1 ? true : text.slice(equals + 1));
				index++;
			} else return { unknown: `the option ${name} is not one Gantry knows` };
			continue;
		}
		let taken = 1;
		for (let position = 1; position < text.length; position++) {
			const name = `-${text[position]}`;
			if (withValue.has(name)) {
				const attached = text.slice(position + 1);
				const value = attached !== "" ? { text: attached, literal: true } : args[index + 1];
				if (value === undefined) return { unknown: `${name} has no value` };
				if (!value.literal) return { unknown: `the value of ${name} is not known before the line runs` };
				seen.set(name, value.text);
				if (attached === "") taken = 2;
				break;
			}
			if (!flags.has(name)) return { unknown: `the option ${name} is not one Gantry knows` };
			seen.set(name, true);
		}
		index += taken;
	}
	return { operands: index, seen };
}
