import picomatch from "picomatch";
import { expandBraces } from "./glob-filter.js";

/** Most values one `{from..to}` range may stand for (fast-glob's limit too). */
const MAX_RANGE_VALUES = 1000;

/**
 * fast-glob's matcher options as `find` always used them (`dot`, case-sensitive, braces, extglobs and
 * globstars on, POSIX classes such as `[[:alpha:]]`); `posix` also makes `[!a]` a negated class, and
 * ranges are expanded as fast-glob expands them (picomatch alone reads `{1..10}` as the class `[1-10]`).
 */
const MATCH_OPTIONS: picomatch.PicomatchOptions = { dot: true, posix: true, expandRange: rangeAlternation };

/**
 * A path segment a name-only test reads exactly as the full-path test: no extglob (whose groups may hold
 * `/`), no leading `!` (which negates a whole pattern, but is a plain character after `**\/`).
 */
const NAME_ONLY_SEGMENT = /^[^/()!][^/()]*$/;

/** A compiled `find` pattern. Paths are relative to the searched folder, `/` separators. */
export interface FindPattern {
	/** Whether the file at `relativePath`, whose last segment is `name`, is selected. */
	matches(relativePath: string, name: string): boolean;
	/** Whether some file below the folder `relativeFolder` could be selected; when not, the walk skips it. */
	mayMatchBelow(relativeFolder: string): boolean;
}

interface Positive {
	test(relativePath: string, name: string): boolean;
	/** Folder every match lies in (picomatch's static base), or "" for anywhere. */
	base: string;
	/** Deepest folder (in segments) a match can lie in. */
	maxFolderDepth: number;
}

/**
 * Compiles `pattern` as fast-glob reads it with `baseNameMatch`: `{a,b}` alternatives are expanded first,
 * an alternative without `/` matches file names at any depth (it gets a leading `**\/`), doubled slashes
 * collapse, and an alternative that starts with `!` (not `!(`) excludes what it matches. Each alternative
 * is then a regex from picomatch with `MATCH_OPTIONS`, tested as fast-glob tests it (the regex alone, no
 * picomatch shortcut for a name equal to the glob). Throws when the braces expand to too many alternatives.
 */
export function compileFindPattern(pattern: string): FindPattern {
	const positives: Positive[] = [];
	const negatives: RegExp[] = [];
	for (const expanded of expandBraces(pattern)) {
		if (expanded === "") continue;
		const alternative = (expanded.includes("/") ? expanded : `**/${expanded}`).replace(/\/{2,}/g, "/");
		if (alternative.startsWith("!") && alternative[1] !== "(")
			negatives.push(picomatch.makeRe(alternative.slice(1), MATCH_OPTIONS));
		else positives.push(positiveOf(alternative));
	}
	return {
		matches(relativePath, name) {
			let selected = false;
			for (const positive of positives) {
				if (positive.test(relativePath, name)) {
					selected = true;
					break;
				}
			}
			if (!selected) return false;
			for (const negative of negatives) if (negative.test(relativePath)) return false;
			return true;
		},
		mayMatchBelow(relativeFolder) {
			const depth = segmentCount(relativeFolder);
			for (const positive of positives) {
				if (depth > positive.maxFolderDepth) continue;
				const base = positive.base;
				if (
					base === "" ||
					base === relativeFolder ||
					base.startsWith(`${relativeFolder}/`) ||
					relativeFolder.startsWith(`${base}/`)
				)
					return true;
			}
			return false;
		},
	};
}

function positiveOf(alternative: string): Positive {
	const rest = alternative.startsWith("**/") ? alternative.slice(3) : undefined;
	let test: Positive["test"];
	if (rest !== undefined && NAME_ONLY_SEGMENT.test(rest)) {
		// `**/x` with a one-segment `x` selects exactly the paths whose name matches `x`: test the name only.
		const nameRegex = picomatch.makeRe(rest, MATCH_OPTIONS);
		test = (_relativePath, name) => nameRegex.test(name);
	} else {
		const pathRegex = picomatch.makeRe(alternative, MATCH_OPTIONS);
		test = (relativePath) => pathRegex.test(relativePath);
	}
	const scanned = picomatch.scan(alternative);
	// An escaped base (`a\*b/…`) is not the folder's name as written; such patterns are not narrowed.
	const base = scanned.base.includes("\\") ? "" : scanned.base;
	// Without `**`, extglobs, classes and escapes, every `/` of the pattern is one folder level.
	const unbounded = /\*\*|[()[\]\\]/.test(alternative);
	const maxFolderDepth = unbounded ? Number.POSITIVE_INFINITY : segmentCount(alternative) - 1;
	return { test, base, maxFolderDepth };
}

function segmentCount(path: string): number {
	let count = 1;
	for (let index = path.indexOf("/"); index >= 0; index = path.indexOf("/", index + 1)) count++;
	return count;
}

/**
 * The regex for a brace range, as fast-glob expands it: `{1..10}`, `{01..10}` (zero-padded),
 * `{1..10..3}` (step), `{5..1}` (downwards) and `{a..e}` (one character each end). Anything else is
 * literal text. Throws past `MAX_RANGE_VALUES` values.
 */
function rangeAlternation(...args: unknown[]): string {
	const parts = args.filter((part): part is string => typeof part === "string");
	const [from, to, step] = parts;
	const literal = `{${parts.join("..")}}`;
	if (from === undefined || to === undefined) return escapeRegex(literal);
	const stride = step !== undefined && /^-?\d+$/.test(step) ? Math.abs(Number(step)) || 1 : 1;
	let values: string[] | undefined;
	if (/^-?\d+$/.test(from) && /^-?\d+$/.test(to)) {
		const padded = /^-?0\d/.test(from) || /^-?0\d/.test(to);
		const width = Math.max(from.length, to.length);
		values = rangeValues(Number(from), Number(to), stride, literal).map((value) =>
			padded ? padNumber(value, width) : String(value),
		);
	} else if (from.length === 1 && to.length === 1) {
		values = rangeValues(from.charCodeAt(0), to.charCodeAt(0), stride, literal).map((code) =>
			String.fromCharCode(code),
		);
	}
	if (values === undefined) return escapeRegex(literal);
	return `(?:${values.map(escapeRegex).join("|")})`;
}

function rangeValues(from: number, to: number, stride: number, literal: string): number[] {
	if (Math.floor(Math.abs(to - from) / stride) + 1 > MAX_RANGE_VALUES)
		throw new Error(
			`The range ${literal} in the pattern stands for more than ${MAX_RANGE_VALUES} values; use a wildcard such as * instead.`,
		);
	const values: number[] = [];
	const direction = to >= from ? 1 : -1;
	for (let value = from; direction > 0 ? value <= to : value >= to; value += direction * stride) values.push(value);
	return values;
}

function padNumber(value: number, width: number): string {
	const digits = String(Math.abs(value));
	const sign = value < 0 ? "-" : "";
	return sign + digits.padStart(width - sign.length, "0");
}

function escapeRegex(text: string): string {
	return text.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&");
}
