/**
 * The first index at or after `from` that does not hold a UTF-8 continuation byte (10xxxxxx), so text cut
 * there starts on a whole character; the length when only continuation bytes follow.
 */
export function characterStart(bytes: Uint8Array, from: number): number {
	let start = from;
	for (let byte = bytes[start]; byte !== undefined && (byte & 0xc0) === 0x80; byte = bytes[start]) start++;
	return start;
}
