import type { CallPathHost } from "./path-glob.js";
import type { ShellWord } from "./shell-words.js";

/** The names a path word stands for, or why they cannot be told. */
export type PathWordNames = { names: string[] } | { unknown: string };

/** Brace expansions and glob matches are followed up to these counts; past them, the word cannot be told. */
const MAX_BRACE_WORDS = 256;
const MAX_GLOB_MATCHES = 2_000;

/** `$HOME`, `${HOME}` or `~` at the start, then plain characters: a home path the judge can name. */
const HOME_PATH = /^(?:\$HOME|\$\{HOME\})((?:\/[^$`"'\\*?[{]*)?)$/;

/**
 * The names bash may give a path word on `host`: a literal word as is; `$HOME/…` with the host's home;
 * a word with brace expansion or glob characters as written and as every existing name it matches (dot
 * files too, so nothing bash could match is missed). Any other expansion cannot be told. Quoting is not
 * known here, so a quoted `*` is matched as a pattern too: that can only find more names.
 */
export async function namesOfPathWord(word: ShellWord, host: CallPathHost, base: string): Promise<PathWordNames> {
	if (!word.literal) {
		const home = HOME_PATH.exec(word.text);
		if (home) return { names: [`${host.home}${home[1] ?? ""}`] };
		return { unknown: `${word.text} is not known before the line runs` };
	}
	if (word.expands !== true) return { names: [word.text] };
	const braced = expandBraces(word.text);
	if (braced === undefined) return { unknown: `${word.text} expands to more than ${MAX_BRACE_WORDS} words` };
	const names = new Set(braced);
	for (const pattern of braced) {
		if (!/[*?[]/.test(pattern)) continue;
		const matches = await matchGlob(pattern, host, base);
		if (matches === undefined) return { unknown: `${word.text} matches more than ${MAX_GLOB_MATCHES} files` };
		for (const match of matches) names.add(match);
	}
	return { names: [...names] };
}

/** Bash's brace expansion (`a{b,c}d`, `{1..3}`, `{a..c}`), nested; undefined past the limit. */
export function expandBraces(text: string): string[] | undefined {
	const open = text.indexOf("{");
	if (open === -1) return [text];
	let depth = 0;
	let close = -1;
	const commas: number[] = [];
	for (let index = open; index < text.length; index++) {
		const character = text[index];
		if (character === "{") depth++;
		else if (character === "}" && --depth === 0) {
			close = index;
			break;
		} else if (character === "," && depth === 1) commas.push(index);
	}
	if (close === -1) return [text];
	const head = text.slice(0, open);
	const inner = text.slice(open + 1, close);
	const tail = text.slice(close + 1);
	let choices: string[];
	if (commas.length > 0) {
		const cuts = [open, ...commas, close];
		choices = cuts.slice(0, -1).map((cut, index) => text.slice(cut + 1, cuts[index + 1]));
	} else {
		const range = sequence(inner);
		if (range === "too many") return undefined;
		if (range === undefined) {
			const rest = expandBraces(tail);
			return rest?.map((item) => `${head}{${inner}}${item}`);
		}
		choices = range;
	}
	const results: string[] = [];
	for (const choice of choices) {
		const expanded = expandBraces(`${head}${choice}${tail}`);
		if (expanded === undefined) return undefined;
		results.push(...expanded);
		if (results.length > MAX_BRACE_WORDS) return undefined;
	}
	return results;
}

/** The words of `1..5`, `a..e` or `1..9..2`; undefined for anything else. */
function sequence(inner: string): string[] | "too many" | undefined {
	const numbers = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/.exec(inner);
	const letters = /^([a-zA-Z])\.\.([a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
	const match = numbers ?? letters;
	if (!match) return undefined;
	const from = numbers ? Number(match[1]) : (match[1] ?? "a").charCodeAt(0);
	const to = numbers ? Number(match[2]) : (match[2] ?? "a").charCodeAt(0);
	const step = Math.max(1, Math.abs(Number(match[3] ?? 1)));
	if (Math.abs(to - from) / step > MAX_BRACE_WORDS) return "too many";
	const items: string[] = [];
	for (let value = from; from <= to ? value <= to : value >= to; value += from <= to ? step : -step) {
		items.push(numbers ? String(value) : String.fromCharCode(value));
	}
	return items;
}

/** One path segment of a glob as a regular expression (`*`, `?`, `[…]`, `[!…]`). */
function segmentPattern(segment: string): RegExp {
	let source = "";
	for (let index = 0; index < segment.length; index++) {
		const character = segment[index] ?? "";
		if (character === "*") source += ".*";
		else if (character === "?") source += ".";
		else if (character === "[") {
			const end = segment.indexOf("]", index + 2);
			if (end === -1) source += "\\[";
			else {
				let set = segment.slice(index + 1, end);
				if (set.startsWith("!") || set.startsWith("^")) set = `^${set.slice(1)}`;
				source += `[${set.replace(/\\/g, "\\\\")}]`;
				index = end;
			}
		} else source += character.replace(/[.+^${}()|\\]/g, "\\$&");
	}
	return new RegExp(`^${source}$`, "s");
}

/** The existing names a glob matches on the host, relative names kept relative to `base`; undefined past the limit. */
async function matchGlob(pattern: string, host: CallPathHost, base: string): Promise<string[] | undefined> {
	const { join, isAbsolute } = host.syntax;
	const absolute = isAbsolute(pattern) || pattern.startsWith("~");
	const start = absolute ? (pattern.startsWith("~") ? host.home : "/") : base;
	const segments = pattern
		.replace(/^~\/?/, "")
		.split("/")
		.filter((segment, index) => segment !== "" || index === 0);
	let places: { disk: string; typed: string }[] = [{ disk: start, typed: pattern.startsWith("~") ? "~" : "" }];
	for (const segment of segments) {
		if (segment === "") continue;
		const next: typeof places = [];
		for (const place of places) {
			const typed = (name: string) => (place.typed === "" ? (absolute ? `/${name}` : name) : `${place.typed}/${name}`);
			if (!/[*?[]/.test(segment)) {
				next.push({ disk: join(place.disk, segment), typed: typed(segment) });
				continue;
			}
			const matcher = segmentPattern(segment);
			const entries = await host.lookup.readdir(place.disk).catch(() => []);
			for (const entry of entries) {
				if (matcher.test(entry.name)) next.push({ disk: join(place.disk, entry.name), typed: typed(entry.name) });
			}
			if (next.length > MAX_GLOB_MATCHES) return undefined;
		}
		places = next;
	}
	return places.map((place) => place.typed);
}
