import ignore, { type Ignore } from "ignore";

const GLOB_CHARACTERS = /[*?[\\]/;

/**
 * A quick, conservative screen for the name patterns: a name it rejects cannot match any of them, so
 * the `ignore` package (which stays the judge of everything the screen lets through) is not asked.
 */
interface NameScreen {
	exact: Set<string>;
	suffixes: string[];
	prefixes: string[];
	/** Some pattern is neither a plain name, `*suffix` nor `prefix*`: every name goes to the package. */
	passAll: boolean;
}

/** How one .gitignore's patterns are routed, so most paths are tested by their name alone. */
interface PatternRouting {
	/** The patterns without a `/` (except a trailing one): they match a name at any depth. */
	namePatterns: string[];
	screen: NameScreen;
	/** First path segments of the patterns anchored to a path (`/dist`, `src/gen/*.ts`). */
	anchoredHeads: Set<string>;
	/** Some anchored pattern starts with a wildcard (`**\/x`, `*\/y`): every path needs the full test. */
	anchoredAnywhere: boolean;
}

/** Sorts the patterns of a .gitignore text by the way they match. Unclear cases count as anchored anywhere. */
function routePatterns(text: string): PatternRouting {
	const screen: NameScreen = { exact: new Set(), suffixes: [], prefixes: [], passAll: false };
	const routing: PatternRouting = { namePatterns: [], screen, anchoredHeads: new Set(), anchoredAnywhere: false };
	for (const rawLine of text.split(/\r?\n/)) {
		const line = rawLine.replace(/^\uFEFF/, "");
		if (line.trim() === "" || line.startsWith("#")) continue;
		let body = line.startsWith("!") ? line.slice(1) : line;
		body = body.replace(/(?<!\\)\s+$/, "");
		if (body.endsWith("/")) body = body.slice(0, -1);
		if (!body.includes("/")) {
			routing.namePatterns.push(line);
			addToScreen(screen, body);
			continue;
		}
		const anchored = body.startsWith("/") ? body.slice(1) : body;
		const slash = anchored.indexOf("/");
		const head = slash === -1 ? anchored : anchored.slice(0, slash);
		if (head === "" || GLOB_CHARACTERS.test(head)) routing.anchoredAnywhere = true;
		else routing.anchoredHeads.add(head);
	}
	return routing;
}

function addToScreen(screen: NameScreen, body: string): void {
	if (!GLOB_CHARACTERS.test(body)) screen.exact.add(body);
	else if (body.startsWith("*") && !GLOB_CHARACTERS.test(body.slice(1))) screen.suffixes.push(body.slice(1));
	else if (body.endsWith("*") && !GLOB_CHARACTERS.test(body.slice(0, -1))) screen.prefixes.push(body.slice(0, -1));
	else screen.passAll = true;
}

function mayMatchName(screen: NameScreen, name: string): boolean {
	if (screen.passAll || screen.exact.has(name)) return true;
	for (const suffix of screen.suffixes) if (name.endsWith(suffix)) return true;
	for (const prefix of screen.prefixes) if (name.startsWith(prefix)) return true;
	return false;
}

/**
 * One .gitignore, compiled with the `ignore` package. The last matching pattern decides, as in git.
 * Paths whose first segment no anchored pattern names are tested by their name against the name
 * patterns only — same verdict, far cheaper than the package's full-path test (which also checks every
 * parent folder and caches every path) — and names that plainly match none of those patterns (no such
 * name, suffix or prefix) are not tested at all.
 */
export class GitignoreFile {
	private readonly full: Ignore;
	private readonly names: Ignore;
	private readonly screen: NameScreen;
	private readonly anchoredHeads: Set<string>;
	private readonly anchoredAnywhere: boolean;

	/**
	 * @param text The file's text.
	 * @param extraPatterns Patterns added after the file's own, to the full test only (they must be anchored).
	 */
	constructor(text: string, extraPatterns: readonly string[] = []) {
		const routing = routePatterns(text);
		this.full = ignore({ ignorecase: false }).add(text).add(extraPatterns);
		this.names = ignore({ ignorecase: false }).add(routing.namePatterns);
		this.screen = routing.screen;
		this.anchoredHeads = routing.anchoredHeads;
		this.anchoredAnywhere = routing.anchoredAnywhere;
	}

	/**
	 * Tests `localPath` (relative to the .gitignore's folder, `/` separators) whose last segment is `name`:
	 * `true` ignored, `false` re-included by a negation, undefined when no pattern matches.
	 */
	test(localPath: string, name: string, isDirectory: boolean): boolean | undefined {
		const suffix = isDirectory ? "/" : "";
		let verdict: ignore.TestResult;
		if (this.anchoredAnywhere || (this.anchoredHeads.size > 0 && this.anchoredHeads.has(firstSegment(localPath)))) {
			verdict = this.full.test(localPath + suffix);
		} else if (mayMatchName(this.screen, name)) {
			verdict = this.names.test(name + suffix);
		} else {
			return undefined;
		}
		if (verdict.ignored) return true;
		if (verdict.unignored) return false;
		return undefined;
	}
}

function firstSegment(path: string): string {
	const slash = path.indexOf("/");
	return slash < 0 ? path : path.slice(0, slash);
}
