/** A piece of a command for messages: whitespace folded, cut with `…` past `limit` characters. */
export function clip(text: string, limit = 80): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > limit ? `${flat.slice(0, limit - 1)}…` : flat;
}

/** The last part of a program path: `/bin/rm` and `./rm` are `rm`. */
export function baseName(program: string): string {
	return program.slice(program.lastIndexOf("/") + 1);
}
