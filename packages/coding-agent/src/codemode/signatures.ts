import { toolAccessor } from "./tool-ids.js";

/** What a signature is built from: a tool's name and its JSON Schemas (TypeBox schemas are JSON Schema). */
export interface SignatureSource {
	name: string;
	parameters: unknown;
	outputSchema?: unknown;
}

/** A TypeScript-like signature and, when the size budget forced it, what it leaves out. */
export interface ToolSignature {
	text: string;
	/** E.g. `"property descriptions"`; absent when nothing was left out. */
	leftOut?: string;
}

interface Detail {
	descriptions: boolean;
	maxDepth: number;
	multiline: boolean;
}

const DETAILS: { detail: Detail; leftOut?: string }[] = [
	{ detail: { descriptions: true, maxDepth: 4, multiline: true } },
	{ detail: { descriptions: false, maxDepth: 4, multiline: false }, leftOut: "property descriptions" },
	{ detail: { descriptions: false, maxDepth: 1, multiline: false }, leftOut: "property descriptions and nested types" },
	{ detail: { descriptions: false, maxDepth: 0, multiline: false }, leftOut: "the parameter and result types" },
];
const MAX_COMMENT_LENGTH = 120;

const COMPACT_DETAILS: { detail: Detail; leftOut?: string }[] = [
	{ detail: { descriptions: false, maxDepth: 2, multiline: false } },
	{ detail: { descriptions: false, maxDepth: 1, multiline: false }, leftOut: "nested types" },
	{ detail: { descriptions: false, maxDepth: 0, multiline: false }, leftOut: "the parameter and result types" },
];

/**
 * The listing's signature: `tools.<id>({ a: string; b?: number })`, followed by ` → <type>` when the tool
 * declares a structured result (without one a call resolves to the tool's text, which the listing says once).
 * With `withDescriptions`, the parameters go on lines of their own with their descriptions as comments.
 * Within `maxLength`, detail is dropped step by step (descriptions, nested types, all types); `leftOut`
 * names what the budget cut. Never throws.
 */
export function formatListingSignature(
	tool: SignatureSource,
	maxLength: number,
	withDescriptions = false,
): ToolSignature {
	const levels = withDescriptions
		? [{ detail: DETAILS[0]!.detail }, ...COMPACT_DETAILS.map(describedLoss)]
		: COMPACT_DETAILS;
	let last: ToolSignature = { text: "" };
	for (const { detail, leftOut } of levels) {
		const args = formatType(tool.parameters, detail, 0, "");
		const result =
			tool.outputSchema === undefined
				? ""
				: ` → ${formatType(tool.outputSchema, { ...detail, descriptions: false, multiline: false }, 0, "")}`;
		last = { text: `${toolAccessor(tool.name)}(${args})${result}` };
		if (leftOut !== undefined) last.leftOut = leftOut;
		if (last.text.length <= maxLength) return last;
	}
	return { text: `${last.text.slice(0, Math.max(0, maxLength - 1))}…`, leftOut: "the parameter and result types" };
}

/** A compact level reached from the described one also loses the descriptions. */
function describedLoss(level: { detail: Detail; leftOut?: string }): { detail: Detail; leftOut: string } {
	return {
		detail: level.detail,
		leftOut: level.leftOut === undefined ? "property descriptions" : `property descriptions and ${level.leftOut}`,
	};
}

/**
 * Formats `tools.<id>(args: {...}): Promise<...>` from the tool's schemas within `maxLength`
 * characters: first with property descriptions as comments, then without them, then with nested
 * object types collapsed, then with bare `object` types; `leftOut` names what the budget cut.
 * The result is `string` unless the tool declares an output schema. Never throws.
 */
export function formatToolSignature(tool: SignatureSource, maxLength: number): ToolSignature {
	let last: ToolSignature = { text: "" };
	for (const { detail, leftOut } of DETAILS) {
		const args = formatType(tool.parameters, detail, 0, "");
		const result =
			tool.outputSchema === undefined
				? "string"
				: formatType(tool.outputSchema, { ...detail, descriptions: false, multiline: false }, 0, "");
		last = { text: `${toolAccessor(tool.name)}(args: ${args}): Promise<${result}>` };
		if (leftOut !== undefined) last.leftOut = leftOut;
		if (last.text.length <= maxLength) return last;
	}
	return { text: `${last.text.slice(0, Math.max(0, maxLength - 1))}…`, leftOut: "the parameter and result types" };
}

/** The TypeScript-like type of one JSON Schema, on one line without comments. Never throws. */
export function schemaToTypeScript(schema: unknown): string {
	return formatType(schema, { descriptions: false, maxDepth: 6, multiline: false }, 0, "");
}

function formatType(schema: unknown, detail: Detail, depth: number, indent: string): string {
	if (schema === true || schema === undefined) return "unknown";
	if (schema === false) return "never";
	if (typeof schema !== "object" || schema === null) return "unknown";
	const record = schema as Record<string, unknown>;
	if ("const" in record) return literal(record.const);
	if (Array.isArray(record.enum)) return union(record.enum.map(literal));
	for (const key of ["anyOf", "oneOf"] as const) {
		const members = record[key];
		if (Array.isArray(members)) return union(members.map((member) => formatType(member, detail, depth, indent)));
	}
	if (Array.isArray(record.allOf)) {
		return record.allOf.map((member) => wrap(formatType(member, detail, depth, indent))).join(" & ");
	}
	if (typeof record.$ref === "string") return record.$ref.split("/").pop() || "unknown";
	const type = record.type;
	if (Array.isArray(type))
		return union(type.map((member) => formatType({ ...record, type: member }, detail, depth, indent)));
	switch (type) {
		case "string":
		case "number":
		case "boolean":
		case "null":
			return type;
		case "integer":
			return "number";
		case "array":
			return formatArray(record, detail, depth, indent);
		case "object":
			return formatObject(record, detail, depth, indent);
		default:
			return "properties" in record ? formatObject(record, detail, depth, indent) : "unknown";
	}
}

function formatArray(record: Record<string, unknown>, detail: Detail, depth: number, indent: string): string {
	const tuple = Array.isArray(record.prefixItems)
		? record.prefixItems
		: Array.isArray(record.items)
			? record.items
			: undefined;
	if (tuple) return `[${tuple.map((item) => formatType(item, detail, depth + 1, indent)).join(", ")}]`;
	if (record.items === undefined) return "unknown[]";
	return `${wrap(formatType(record.items, detail, depth, indent))}[]`;
}

function formatObject(record: Record<string, unknown>, detail: Detail, depth: number, indent: string): string {
	if (depth >= detail.maxDepth) return "object";
	const properties = (typeof record.properties === "object" && record.properties) || {};
	const required = new Set(Array.isArray(record.required) ? record.required : []);
	const entries = Object.entries(properties as Record<string, unknown>);
	const patterns = record.patternProperties;
	const patternTypes =
		typeof patterns === "object" && patterns !== null ? Object.values(patterns as Record<string, unknown>) : [];
	const extra = patternTypes.length === 1 ? patternTypes[0] : record.additionalProperties;
	if (entries.length === 0) {
		if (typeof extra === "object" && extra !== null) {
			return `Record<string, ${formatType(extra, detail, depth + 1, indent)}>`;
		}
		return extra === false ? "{}" : "Record<string, unknown>";
	}
	const inner = `${indent}  `;
	const members = entries.map(([key, property]) => {
		const name = /^[A-Za-z_$][\w$]*$/.test(key) ? key : JSON.stringify(key);
		const optional = required.has(key) ? "" : "?";
		const member = `${name}${optional}: ${formatType(property, detail, depth + 1, inner)};`;
		const comment = detail.multiline && detail.descriptions && depth === 0 ? describe(property) : "";
		return comment === "" ? member : `${member} // ${comment}`;
	});
	if (typeof extra === "object" && extra !== null) {
		members.push(`[key: string]: ${formatType(extra, detail, depth + 1, inner)};`);
	}
	if (detail.multiline && depth === 0)
		return `{\n${members.map((member) => `${inner}${member}`).join("\n")}\n${indent}}`;
	return `{ ${members.join(" ").replace(/;$/, "")} }`;
}

function describe(property: unknown): string {
	if (typeof property !== "object" || property === null) return "";
	const { description, default: defaultValue } = property as { description?: unknown; default?: unknown };
	let text = typeof description === "string" ? description.replace(/\s+/g, " ").trim() : "";
	if (defaultValue !== undefined && !/default/i.test(text)) {
		text = `${text}${text === "" ? "" : " "}(default ${JSON.stringify(defaultValue)})`;
	}
	return text.length > MAX_COMMENT_LENGTH ? `${text.slice(0, MAX_COMMENT_LENGTH - 1)}…` : text;
}

function literal(value: unknown): string {
	return value === undefined ? "undefined" : JSON.stringify(value);
}

function union(members: string[]): string {
	const unique = [...new Set(members)];
	return unique.length === 0 ? "never" : unique.join(" | ");
}

/** Parenthesises unions and intersections where an array suffix or `&` would bind wrongly. */
function wrap(type: string): string {
	return /[|&]/.test(type) && !/^[{[]/.test(type) ? `(${type})` : type;
}
