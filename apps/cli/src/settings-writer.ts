import { randomBytes } from "node:crypto";
import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { CliError } from "./errors.js";

function refused(path: string, why: string, rules: readonly string[]): CliError {
	const list = rules.map((rule) => JSON.stringify(rule)).join(", ");
	return new CliError(
		"session_failed",
		`${path} was not changed: ${why}. Fix the file, or add ${list} to its permissions.allow yourself.`,
	);
}

/** The file's indentation (a tab, or its first indented line's spaces), so a rewrite keeps its look. */
export function indentationOf(text: string): string {
	const [, indentation] = /\n([ \t]+)\S/.exec(text) ?? [];
	if (indentation === undefined) return "\t";
	return indentation.startsWith("\t") ? "\t" : indentation;
}

/** The file's text, the real file behind a link, and its mode; undefined when there is none. */
export async function readExisting(path: string): Promise<{ text: string; file: string; mode: number } | undefined> {
	let file: string;
	try {
		file = await realpath(path);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
	const [text, info] = await Promise.all([readFile(file, "utf8"), stat(file)]);
	return { text, file, mode: info.mode & 0o777 };
}

/**
 * Adds allow rules to a settings file's `permissions.allow` (those not there yet) and returns them. Every
 * other key stays, and the file keeps its indentation; a missing file (and its folder) is created. The new
 * text goes to a temp file beside the file (a linked file: beside its target), which is renamed over it,
 * so a reader never sees half a file. A file that is not a JSON object, or whose `permissions` or
 * `permissions.allow` has another shape, is left as it is: throws `session_failed` saying why.
 */
export async function appendAllowRules(path: string, rules: readonly string[]): Promise<string[]> {
	let existing: Awaited<ReturnType<typeof readExisting>>;
	try {
		existing = await readExisting(path);
	} catch (error) {
		throw refused(path, `it cannot be read (${(error as Error).message})`, rules);
	}
	let settings: unknown = {};
	if (existing) {
		try {
			settings = JSON.parse(existing.text);
		} catch (error) {
			throw refused(path, `it is not valid JSON (${(error as Error).message})`, rules);
		}
	}
	if (typeof settings !== "object" || settings === null || Array.isArray(settings)) {
		throw refused(path, "it does not hold a JSON object", rules);
	}
	const object = settings as Record<string, unknown>;
	const permissions = object.permissions ?? {};
	if (typeof permissions !== "object" || permissions === null || Array.isArray(permissions)) {
		throw refused(path, "its permissions is not an object", rules);
	}
	const lists = permissions as Record<string, unknown>;
	const allow = lists.allow ?? [];
	if (!Array.isArray(allow) || allow.some((rule) => typeof rule !== "string")) {
		throw refused(path, "its permissions.allow is not a list of rule strings", rules);
	}
	const added = rules.filter((rule, index) => !allow.includes(rule) && rules.indexOf(rule) === index);
	if (added.length === 0) return [];
	object.permissions = { ...lists, allow: [...allow, ...added] };
	const target = existing?.file ?? path;
	const text = `${JSON.stringify(object, null, existing ? indentationOf(existing.text) : "\t")}\n`;
	try {
		await writeAtomically(target, text, existing?.mode ?? 0o644);
	} catch (error) {
		throw refused(path, `it cannot be written (${(error as Error).message})`, rules);
	}
	return added;
}

/**
 * Writes `text` to a temp file beside `target` (its folder created), then renames it over `target`, so a
 * reader never sees half a file. Rejects with the file system's error, leaving no temp file behind.
 */
export async function writeAtomically(target: string, text: string, mode: number): Promise<void> {
	const temp = `${target}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
	try {
		await mkdir(dirname(target), { recursive: true });
		await writeFile(temp, text, { mode, flag: "wx" });
		await rename(temp, target);
	} catch (error) {
		await rm(temp, { force: true });
		throw error;
	}
}
