import { shellQuote } from "./quote.js";

/** The variable every spawned command carries (as locally), so processes that left its group are found too. */
export const CALL_MARKER_VARIABLE = "GANTRY_CALL_ID";
const POLL_SECONDS = 0.02;

/**
 * The wrapper every spawned command starts in (`sh -c SCRIPT gantry CWD FILE ARGS…`): it enters the
 * folder, sets the variables, checks the program exists, prints its process id on the first line of
 * standard output and replaces itself with the program. OpenSSH starts a command without a pty as the
 * leader of a new session, so that id is the process group of the whole tree the command starts.
 */
export function wrapperScript(env: Readonly<Record<string, string>>): string {
	const exports = Object.entries(env).map(([name, value]) => `export ${name}=${shellQuote(value)}`);
	return [
		`cd -- "$1" 2>/dev/null || { printf 'E cwd\\n'; exit 127; }`,
		"shift",
		...exports,
		`command -v "$1" >/dev/null 2>&1 || { printf 'E file\\n'; exit 127; }`,
		`printf 'P %s\\n' "$$"`,
		`exec "$@"`,
	].join("\n");
}

/** What a kill reaches: process groups, and every process whose environment holds the marker. */
export interface KillTarget {
	groups: readonly number[];
	/** `GANTRY_CALL_ID` value; with `prefix`, every value starting with it. */
	marker: string;
	prefix?: boolean;
	graceMs: number;
}

/**
 * One remote script that sends TERM to the groups and to the marked processes (found in
 * `/proc/<pid>/environ` where the host has it, so `setsid` and double forks do not escape), waits up to
 * `graceMs` for them to go, then sends KILL.
 */
export function killScript({ groups, marker, prefix, graceMs }: KillTarget): string {
	const rounds = Math.max(1, Math.ceil(graceMs / (POLL_SECONDS * 1000)));
	const pattern = prefix
		? `grep -lz -- ${shellQuote(`^${CALL_MARKER_VARIABLE}=${marker.replace(/\./g, "\\.")}`)}`
		: `grep -lzxF -- ${shellQuote(`${CALL_MARKER_VARIABLE}=${marker}`)}`;
	const groupList = groups.map((group) => `-${group}`).join(" ");
	return [
		`marked() { [ -d /proc/self ] || return 0; ${pattern} /proc/[0-9]*/environ 2>/dev/null | sed 's#^/proc/\\([0-9]*\\)/environ$#\\1#'; }`,
		"signal() {",
		...(groups.length > 0 ? [`  for group in ${groupList}; do kill -s "$1" -- "$group" 2>/dev/null; done`] : []),
		'  for pid in $(marked); do kill -s "$1" "$pid" 2>/dev/null; done',
		"}",
		"alive() {",
		...(groups.length > 0
			? [`  for group in ${groupList}; do kill -s 0 -- "$group" 2>/dev/null && return 0; done`]
			: []),
		'  [ -n "$(marked)" ]',
		"}",
		"signal TERM",
		"i=0",
		"while alive; do",
		`  i=$((i+1)); [ "$i" -gt ${rounds} ] && { signal KILL; break; }; sleep ${POLL_SECONDS}`,
		"done",
		"exit 0",
	].join("\n");
}

/**
 * Looks for an executable file on `pathValue` (default: the host's PATH), not a shell builtin or
 * function, which `spawn` could not start.
 */
export function whichScript(name: string, pathValue?: string): string {
	const quoted = shellQuote(name);
	if (name.includes("/")) return `[ -f ${quoted} ] && [ -x ${quoted} ] && printf '%s\\n' ${quoted}`;
	return [
		pathValue === undefined ? "search=$PATH" : `search=${shellQuote(pathValue)}`,
		"IFS=:",
		"for folder in $search; do",
		`  [ -f "$folder/"${quoted} ] && [ -x "$folder/"${quoted} ] && { printf '%s\\n' "$folder/"${quoted}; exit 0; }`,
		"done",
		"exit 1",
	].join("\n");
}
