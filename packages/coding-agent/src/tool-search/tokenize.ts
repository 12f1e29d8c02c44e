/**
 * Splits text into lowercase search terms: words are cut at spaces and punctuation, at snake_case and
 * kebab-case separators, and at camelCase humps (`readFile` → `read`, `file`; `HTTPServer` → `http`,
 * `server`). A light plural fold (`files` → `file`) lets a query and a description meet halfway.
 */
export function tokenize(text: string): string[] {
	const terms: string[] = [];
	for (const word of text.split(/[^\p{L}\p{N}]+/u)) {
		if (word === "") continue;
		const parts = word
			.replace(/(\p{Ll})(\p{Lu})/gu, "$1 $2")
			.replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, "$1 $2")
			.replace(/(\p{L})(\p{N})/gu, "$1 $2")
			.replace(/(\p{N})(\p{L})/gu, "$1 $2")
			.split(" ");
		for (const part of parts) terms.push(foldPlural(part.toLowerCase()));
	}
	return terms;
}

function foldPlural(term: string): string {
	if (term.length <= 3) return term;
	if (term.endsWith("ies") && term.length > 4) return `${term.slice(0, -3)}y`;
	if (term.endsWith("sses")) return term.slice(0, -2);
	if (/(ch|sh|x|z)es$/.test(term)) return term.slice(0, -2);
	if (term.endsWith("ss") || term.endsWith("us") || term.endsWith("is")) return term;
	if (term.endsWith("s")) return term.slice(0, -1);
	return term;
}
