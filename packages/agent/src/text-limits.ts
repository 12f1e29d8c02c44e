/** Most characters of any error text the pipeline returns (and tools should return). */
export const MAX_ERROR_TEXT_CHARS = 2000;

/**
 * `text` cut to at most `maxChars` characters by removing its middle, which a marker saying how much
 * was left out replaces: the start (usually what failed) and the end (usually why) both survive.
 * Never splits a UTF-16 surrogate pair. Returns `text` itself when it fits.
 *
 * @example
 * elideMiddle("a".repeat(5000), 100); // "aaa…[4,9xx characters elided]…aaa", 100 characters long
 */
export function elideMiddle(text: string, maxChars: number = MAX_ERROR_TEXT_CHARS): string {
	if (text.length <= maxChars) return text;
	// Fewer characters than the whole text are elided, so this marker is at least as long as the real one.
	const kept = maxChars - markerFor(text.length).length;
	if (kept <= 0) return text.slice(0, cutPoint(text, maxChars));
	const head = cutPoint(text, Math.ceil(kept / 2));
	let tail = text.length - (kept - Math.ceil(kept / 2));
	if (isLowSurrogate(text.charCodeAt(tail))) tail += 1;
	return `${text.slice(0, head)}${markerFor(tail - head)}${text.slice(tail)}`;
}

/** An error text bounded to `MAX_ERROR_TEXT_CHARS` (see `elideMiddle`). */
export function boundErrorText(text: string): string {
	return elideMiddle(text, MAX_ERROR_TEXT_CHARS);
}

function markerFor(elided: number): string {
	return `…[${elided.toLocaleString("en-US")} characters elided]…`;
}

/** `index`, moved back by one when it would split a surrogate pair. */
function cutPoint(text: string, index: number): number {
	return index > 0 && isLowSurrogate(text.charCodeAt(index)) ? index - 1 : index;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}
