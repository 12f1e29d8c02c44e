/** How many leading bytes of a file decide whether it is text. */
export const BINARY_SNIFF_BYTES = 8 * 1024;

const decoder = new TextDecoder("utf-8", { fatal: false });

/**
 * Guesses from a file's first bytes whether it is binary: any NUL byte, or more than 10% of the
 * characters being invalid UTF-8 or control characters other than tab, newline, carriage return,
 * form feed, vertical tab and escape. A Latin-1 file with a few accents still counts as text.
 */
export function looksBinary(head: Uint8Array): boolean {
	if (head.length === 0) return false;
	if (head.includes(0)) return true;
	const text = decoder.decode(head);
	let suspicious = 0;
	// The last character may be a multi-byte sequence cut by the sniff window; never count it.
	const end = text.length - 1;
	for (let index = 0; index < end; index++) {
		const code = text.charCodeAt(index);
		if (
			code === 0xfffd ||
			(code < 0x20 && code !== 9 && code !== 10 && code !== 11 && code !== 12 && code !== 13 && code !== 27)
		)
			suspicious++;
	}
	return suspicious > Math.max(1, end) * 0.1;
}
