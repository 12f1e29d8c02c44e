/** The most characters an error a builtin tool returns may have. */
export const MAX_ERROR_CHARS = 2000;

/**
 * `text` when it has at most `maxChars` characters; else its start and its end with the middle replaced
 * by `…[N characters elided]…`, `maxChars` characters in all. A surrogate pair is never cut in half.
 */
export function elideMiddle(text: string, maxChars: number): string {
	if (text.length <= maxChars) return text;
	const marker = (elided: number) => `…[${elided} characters elided]…`;
	const keep = Math.max(0, maxChars - marker(text.length).length);
	let headEnd = Math.ceil(keep / 2);
	let tailStart = text.length - (keep - headEnd);
	if (isLowSurrogate(text.charCodeAt(headEnd))) headEnd--;
	if (isLowSurrogate(text.charCodeAt(tailStart))) tailStart++;
	return `${text.slice(0, headEnd)}${marker(tailStart - headEnd)}${text.slice(tailStart)}`;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}
