const IDENTIFIER_PART = /[\p{ID_Continue}$]/u;
const IDENTIFIER_START = /^[\p{ID_Start}$_]/u;

/**
 * The identifier a script uses for a tool: `tools.<id>`. Every character that cannot appear in a
 * JavaScript identifier becomes `_`, and a name that starts with a digit gets a leading `_`.
 * @example toolId("github-search") // "github_search"
 */
export function toolId(name: string): string {
	const replaced = Array.from(name, (character) => (IDENTIFIER_PART.test(character) ? character : "_")).join("");
	return IDENTIFIER_START.test(replaced) ? replaced : `_${replaced}`;
}

/** How a script reaches a tool: `tools.read`, or `tools["odd name"]` when the id differs from the name. */
export function toolAccessor(name: string): string {
	return toolId(name) === name ? `tools.${name}` : `tools[${JSON.stringify(name)}]`;
}
