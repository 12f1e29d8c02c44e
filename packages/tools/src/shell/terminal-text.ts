/**
 * Makes command output readable as plain text for a model: terminal escape sequences (colours, cursor
 * moves, window titles) are removed and CRLF line ends become LF. A carriage return inside a line is
 * kept, so output that uses it as a line end loses nothing.
 */

/**
 * One terminal escape sequence: CSI (`ESC [` parameters, intermediates, a final byte), OSC (`ESC ]` up to
 * BEL or `ESC \`), a character-set choice (`ESC ( B`), or a two-byte escape. An incomplete sequence at the
 * very end (output still arriving) is taken too.
 */
const ESCAPE_SEQUENCE =
	// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal escape sequences start with ESC (and OSC ends with BEL).
	/\u001b(?:\[[0-?]*[ -/]*(?:[@-~]|$)|\][^\u0007\u001b]*(?:\u0007|\u001b\\|$)|[()*+#%][ -~]?|[0-~]|$)/g;

/**
 * `text` without terminal escape sequences, with CRLF turned into LF and a carriage return at the very
 * end dropped (the rest of its CRLF when the output was cut after the CR).
 */
export function plainTerminalText(text: string): string {
	const withoutEscapes = text.includes("\u001b") ? text.replace(ESCAPE_SEQUENCE, "") : text;
	const lf = withoutEscapes.includes("\r\n") ? withoutEscapes.replaceAll("\r\n", "\n") : withoutEscapes;
	return lf.endsWith("\r") ? lf.slice(0, -1) : lf;
}
