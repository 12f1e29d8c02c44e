import { CodingAgentError } from "../errors.js";
import { didYouMean } from "./did-you-mean.js";

/** How far a misspelt key may be from the one meant: two edits, more for long keys. */
export const keyEdits = (candidate: string): number => Math.max(2, Math.floor(candidate.length / 4));

/** Collects what one settings file asked for that Gantry leaves out, and throws for what it cannot read. */
export class SettingsFileCheck {
	readonly ignored: string[] = [];

	/** @param where names the file in errors and notes (`/home/u/.gantry/settings.json`, `user@host:22:/p/…`). */
	constructor(readonly where: string) {}

	/** A configuration error naming the file, what is wrong at `key` and how to fix it. */
	error(key: string, why: string): CodingAgentError {
		return new CodingAgentError("invalid_option", `${this.where}: ${key === "" ? "" : `${key} `}${why}`);
	}

	/** Notes a key or value the file gives that Gantry does not use. */
	ignore(key: string, why: string): void {
		this.ignored.push(`${this.where}: ${key} (${why})`);
	}

	/** `value` as a plain object; throws naming `key` otherwise. */
	object(key: string, value: unknown, example: string): Record<string, unknown> {
		if (typeof value !== "object" || value === null || Array.isArray(value)) {
			throw this.error(key, `${key === "" ? "must hold a JSON object" : "must be an object"}, e.g. ${example}`);
		}
		return value as Record<string, unknown>;
	}

	/** `value` as a list of strings; throws naming `key` (and the bad entry) otherwise. */
	strings(key: string, value: unknown, example: string, noun = "strings"): string[] {
		if (!Array.isArray(value)) throw this.error(key, `must be a list of ${noun}, e.g. ${example}`);
		value.forEach((entry, index) => {
			if (typeof entry !== "string") throw this.error(`${key}[${index}]`, `must be a string (got ${typeOf(entry)})`);
		});
		return value as string[];
	}

	boolean(key: string, value: unknown): boolean {
		if (typeof value !== "boolean") throw this.error(key, `must be true or false (got ${typeOf(value)})`);
		return value;
	}

	string(key: string, value: unknown): string {
		if (typeof value !== "string") throw this.error(key, `must be a string (got ${typeOf(value)})`);
		return value;
	}

	/**
	 * Sorts the keys of `object` (at `prefix`): the ones Gantry reads are returned, Claude Code's others are
	 * noted as ignored, and any other key is an error with the closest key meant.
	 */
	keys(
		prefix: string,
		object: Record<string, unknown>,
		known: readonly string[],
		claudeOnly: readonly string[],
		suggestions: readonly string[] = [...known, ...claudeOnly],
	): string[] {
		const used: string[] = [];
		for (const key of Object.keys(object)) {
			const path = prefix === "" ? key : `${prefix}.${key}`;
			if (known.includes(key)) used.push(key);
			else if (claudeOnly.includes(key)) this.ignore(path, "a Claude Code setting Gantry does not use");
			else {
				const hint = didYouMean(key, suggestions, keyEdits);
				throw this.error(
					JSON.stringify(path),
					`is not a setting Gantry or Claude Code knows${hint}. Fix the name or remove the key.`,
				);
			}
		}
		return used;
	}
}

export function typeOf(value: unknown): string {
	if (value === null) return "null";
	if (Array.isArray(value)) return "a list";
	return typeof value;
}
