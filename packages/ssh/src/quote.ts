/** Quotes `text` as one word for a POSIX shell: single quotes, each `'` written as `'\''`. */
export function shellQuote(text: string): string {
	if (/^[A-Za-z0-9_./=:@%+-]+$/.test(text)) return text;
	return `'${text.replace(/'/g, "'\\''")}'`;
}

/** A command line of words, each quoted. */
export function shellWords(words: readonly string[]): string {
	return words.map(shellQuote).join(" ");
}
