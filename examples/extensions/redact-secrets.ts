/**
 * Redact secrets: a `tool_result` handler that masks API-key-like strings (OpenAI/Anthropic `sk-…`,
 * GitHub `ghp_…`/`github_pat_…`, AWS `AKIA…`, Slack `xox…-`, `Bearer …` tokens) in what tools return,
 * before the model (or a codemode script, through `structuredContent`) sees them.
 *
 *     gantry -e examples/extensions/redact-secrets.ts
 */
import type { ExtensionAPI } from "@gantry/extensions";

const MASK = "[REDACTED]";

const SECRETS: RegExp[] = [
	/\bsk-(?:proj-|ant-[a-z0-9]+-)?[A-Za-z0-9_-]{16,}/g,
	/\bgh[pousr]_[A-Za-z0-9]{20,}/g,
	/\bgithub_pat_[A-Za-z0-9_]{20,}/g,
	/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
	/\bxox[abprs]-[A-Za-z0-9-]{10,}/g,
];
const BEARER = /\b(Bearer\s+)[A-Za-z0-9._~+/-]{16,}=*/g;

/** The text with every secret masked. */
function redact(text: string): string {
	let masked = text.replace(BEARER, `$1${MASK}`);
	for (const pattern of SECRETS) masked = masked.replace(pattern, MASK);
	return masked;
}

export default function redactSecrets(api: ExtensionAPI): void {
	api.on("tool_result", (event) => {
		let changed = false;
		const content = event.content.map((block) => {
			if (block.type !== "text") return block;
			const text = redact(block.text);
			changed ||= text !== block.text;
			return { ...block, text };
		});
		const structured = event.structuredContent === undefined ? undefined : JSON.stringify(event.structuredContent);
		const redactedStructured = structured === undefined ? undefined : redact(structured);
		if (!changed && redactedStructured === structured) return;
		// Returning `content` without `structuredContent` would drop it, so hand back the masked copy.
		return {
			content,
			structuredContent: redactedStructured === undefined ? undefined : JSON.parse(redactedStructured),
		};
	});
}
