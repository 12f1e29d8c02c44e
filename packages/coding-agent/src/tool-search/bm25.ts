import type { ToolNamespace } from "@gantry/extensions";
import { tokenize } from "./tokenize.js";

/** What tool search ranks: a tool's name, description, parameters and namespace. */
export interface SearchableTool {
	name: string;
	description: string;
	/** JSON Schema (TypeBox) of the arguments; property names and descriptions are searched. */
	parameters?: unknown;
	namespace?: ToolNamespace;
}

/** How much one occurrence of a term counts, per field. The name says the most about a tool. */
const FIELD_WEIGHTS = { name: 3, namespace: 1.5, description: 1, parameterName: 1, parameterDescription: 0.5 };
const K1 = 1.2;
const B = 0.75;
/** How deep nested parameter objects are searched. */
const MAX_PARAMETER_DEPTH = 3;

interface IndexedTool<T> {
	tool: T;
	order: number;
	frequencies: Map<string, number>;
	length: number;
}

/**
 * Ranks `tools` against `query` with BM25 over weighted fields (name weighted up, then namespace,
 * description, parameter names and descriptions) and returns at most `limit` tools that match at
 * least one term, best first. A tool whose name equals the query (ignoring case) always comes first.
 * Ties keep the input order. Never throws.
 */
export function rankTools<T extends SearchableTool>(tools: readonly T[], query: string, limit: number): T[] {
	const queryTerms = [...new Set(tokenize(query))];
	const wanted = query.trim().toLowerCase();
	const indexed = tools.map((tool, order) => indexTool(tool, order));
	const averageLength = indexed.reduce((sum, entry) => sum + entry.length, 0) / Math.max(indexed.length, 1) || 1;
	const documentFrequency = new Map<string, number>();
	for (const term of queryTerms) {
		documentFrequency.set(term, indexed.filter((entry) => entry.frequencies.has(term)).length);
	}
	const scored: { entry: IndexedTool<T>; score: number; exact: boolean }[] = [];
	for (const entry of indexed) {
		const exact = wanted !== "" && entry.tool.name.toLowerCase() === wanted;
		let score = 0;
		for (const term of queryTerms) {
			const frequency = entry.frequencies.get(term);
			if (frequency === undefined) continue;
			const documents = documentFrequency.get(term) ?? 0;
			const idf = Math.log(1 + (indexed.length - documents + 0.5) / (documents + 0.5));
			score += (idf * frequency * (K1 + 1)) / (frequency + K1 * (1 - B + (B * entry.length) / averageLength));
		}
		if (exact || score > 0) scored.push({ entry, score, exact });
	}
	scored.sort(
		(left, right) =>
			Number(right.exact) - Number(left.exact) || right.score - left.score || left.entry.order - right.entry.order,
	);
	return scored.slice(0, Math.max(0, limit)).map((item) => item.entry.tool);
}

function indexTool<T extends SearchableTool>(tool: T, order: number): IndexedTool<T> {
	const frequencies = new Map<string, number>();
	let length = 0;
	const add = (text: string | undefined, weight: number) => {
		if (!text) return;
		for (const term of tokenize(text)) {
			frequencies.set(term, (frequencies.get(term) ?? 0) + weight);
			length += weight;
		}
	};
	add(tool.name, FIELD_WEIGHTS.name);
	add(tool.description, FIELD_WEIGHTS.description);
	if (tool.namespace) {
		add(tool.namespace.name, FIELD_WEIGHTS.namespace);
		for (const alias of tool.namespace.aliases ?? []) add(alias, FIELD_WEIGHTS.namespace);
		add(tool.namespace.description, FIELD_WEIGHTS.namespace);
	}
	visitParameters(tool.parameters, 0, (name, description) => {
		add(name, FIELD_WEIGHTS.parameterName);
		add(description, FIELD_WEIGHTS.parameterDescription);
	});
	return { tool, order, frequencies, length };
}

function visitParameters(
	schema: unknown,
	depth: number,
	visit: (name: string, description: string | undefined) => void,
): void {
	if (depth >= MAX_PARAMETER_DEPTH || typeof schema !== "object" || schema === null) return;
	const record = schema as Record<string, unknown>;
	const properties = record.properties;
	if (typeof properties === "object" && properties !== null) {
		for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
			const description = (property as { description?: unknown } | null)?.description;
			visit(name, typeof description === "string" ? description : undefined);
			visitParameters(property, depth + 1, visit);
		}
	}
	if (typeof record.items === "object") visitParameters(record.items, depth + 1, visit);
	for (const key of ["anyOf", "oneOf", "allOf"] as const) {
		const members = record[key];
		if (Array.isArray(members)) for (const member of members) visitParameters(member, depth + 1, visit);
	}
}
