function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function parseEditsString(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		throw new Error("`edits` is a string that is not valid JSON; send it as an array of { oldText, newText } objects.");
	}
}

/**
 * Turns the shapes models and older callers send into `{ path, edits: [...] }` before validation:
 * the legacy single `{ path, oldText, newText }`, `edits` sent as a JSON string, and a lone edit object
 * in place of the array. `null` fields (strict-mode providers send them) count as absent. Anything
 * else is returned as it came, for validation to report. Throws when `edits` is a string that is not JSON.
 */
export function prepareEditArguments(raw: unknown): unknown {
	if (!isRecord(raw)) return raw;
	const args: Record<string, unknown> = { ...raw };
	let edits = args.edits;
	if (typeof edits === "string") edits = parseEditsString(edits);
	if (isRecord(edits)) edits = [edits];
	if (edits === null) edits = undefined;

	const hasLegacy = args.oldText !== undefined && args.oldText !== null;
	if (hasLegacy) {
		const legacy = { oldText: args.oldText, newText: args.newText ?? undefined };
		edits = Array.isArray(edits) ? [...edits, legacy] : [legacy];
	}
	if (hasLegacy || args.oldText === null) delete args.oldText;
	if (hasLegacy || args.newText === null) delete args.newText;
	if (edits === undefined) delete args.edits;
	else args.edits = edits;
	return args;
}
