import { UnsupportedStrictJsonSchemaError } from "./errors.js";

type SchemaNode = Record<string, unknown>;

/** Constructs strict mode cannot express, each with the reason given in the error. */
const UNSUPPORTED_KEYWORDS = new Map([
	["$ref", "references ($ref) are not supported"],
	["oneOf", "oneOf is not supported"],
	["allOf", "allOf is not supported"],
	["not", "not is not supported"],
	["if", "if/then/else is not supported"],
	["then", "if/then/else is not supported"],
	["else", "if/then/else is not supported"],
	["patternProperties", "patternProperties (records) is not supported"],
	["prefixItems", "tuples (prefixItems) are not supported"],
]);

/** Keywords kept in a strict schema; everything else (defaults, lengths, TypeBox extras) is dropped. */
const KEPT_KEYWORDS = new Set([
	"title",
	"description",
	"enum",
	"const",
	"pattern",
	"format",
	"minimum",
	"maximum",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"multipleOf",
	"minItems",
	"maxItems",
]);

/** String formats strict mode accepts; other formats are dropped rather than failing the request. */
const STRICT_FORMATS = new Set(["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"]);

const PRIMITIVE_TYPES = new Set(["string", "number", "integer", "boolean", "null"]);

/**
 * A deep copy of a JSON Schema as plain JSON: TypeBox's symbol keys (and anything else JSON cannot hold)
 * are gone, so the result can be sent to a provider or compared with `toEqual`.
 */
export function toPlainJsonSchema(schema: object): Record<string, unknown> {
	return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/**
 * Rewrites a JSON Schema into the form providers' strict mode (constrained sampling) accepts: every
 * property is required, optional ones become nullable (`type: [t, "null"]`, or `anyOf` with
 * `{ type: "null" }` for objects, arrays, enums and consts), and every object gets
 * `additionalProperties: false`. Keywords strict mode ignores or rejects (defaults, string lengths,
 * unknown formats…) are dropped; the output is plain JSON.
 *
 * @throws UnsupportedStrictJsonSchemaError for `$ref`, `oneOf`, `allOf`, `not`, `if/then/else`,
 * `patternProperties`, tuples (`prefixItems` or an `items` array), `anyOf` unions of objects, free-form
 * `additionalProperties`, arrays without `items` and schemas without a `type`. Its `path` points at the
 * offending node, e.g. `/properties/edits/items`.
 */
export function makeStrictJsonSchema(schema: object): Record<string, unknown> {
	return strictNode(toPlainJsonSchema(schema), "");
}

function strictNode(node: SchemaNode, path: string): SchemaNode {
	if (typeof node !== "object" || node === null || Array.isArray(node)) {
		throw new UnsupportedStrictJsonSchemaError("a schema must be an object", path);
	}
	for (const [keyword, reason] of UNSUPPORTED_KEYWORDS) {
		if (keyword in node) throw new UnsupportedStrictJsonSchemaError(reason, pointer(path, keyword));
	}
	if (Array.isArray(node.anyOf)) return strictUnion(node, path);

	const types = typeList(node.type);
	if (types.length === 0) throw new UnsupportedStrictJsonSchemaError("a schema without a type is not supported", path);
	const result: SchemaNode = { type: node.type };
	for (const [key, value] of Object.entries(node)) {
		if (!KEPT_KEYWORDS.has(key)) continue;
		if (key === "format" && !STRICT_FORMATS.has(String(value))) continue;
		result[key] = value;
	}
	if (types.includes("object")) {
		if (types.length > 1) throw new UnsupportedStrictJsonSchemaError("a type union with object is not supported", path);
		Object.assign(result, strictObject(node, path));
	}
	if (types.includes("array")) {
		if (types.length > 1) throw new UnsupportedStrictJsonSchemaError("a type union with array is not supported", path);
		result.items = strictItems(node, path);
	}
	return result;
}

function strictObject(node: SchemaNode, path: string): SchemaNode {
	const extra = node.additionalProperties;
	if (extra !== undefined && extra !== false) {
		throw new UnsupportedStrictJsonSchemaError(
			"free-form objects (additionalProperties) are not supported",
			pointer(path, "additionalProperties"),
		);
	}
	const properties = (node.properties ?? {}) as Record<string, SchemaNode>;
	const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
	const strictProperties: Record<string, SchemaNode> = {};
	for (const [name, property] of Object.entries(properties)) {
		const strict = strictNode(property, pointer(pointer(path, "properties"), name));
		strictProperties[name] = required.has(name) ? strict : nullable(strict);
	}
	return { properties: strictProperties, required: Object.keys(strictProperties), additionalProperties: false };
}

function strictItems(node: SchemaNode, path: string): SchemaNode {
	const items = node.items;
	if (Array.isArray(items))
		throw new UnsupportedStrictJsonSchemaError("tuples (items arrays) are not supported", pointer(path, "items"));
	if (typeof items !== "object" || items === null) {
		throw new UnsupportedStrictJsonSchemaError("an array without an items schema is not supported", path);
	}
	return strictNode(items as SchemaNode, pointer(path, "items"));
}

function strictUnion(node: SchemaNode, path: string): SchemaNode {
	const variants = node.anyOf as SchemaNode[];
	const strictVariants = variants.map((variant, index) => {
		const variantPath = pointer(pointer(path, "anyOf"), String(index));
		if (isObjectSchema(variant)) {
			throw new UnsupportedStrictJsonSchemaError("unions (anyOf) of objects are not supported", variantPath);
		}
		return strictNode(variant, variantPath);
	});
	const result: SchemaNode = { anyOf: strictVariants };
	if (typeof node.description === "string") result.description = node.description;
	if (typeof node.title === "string") result.title = node.title;
	return result;
}

/** The schema that also accepts `null` (how strict mode expresses an optional property). */
function nullable(schema: SchemaNode): SchemaNode {
	if (Array.isArray(schema.anyOf)) {
		const variants = schema.anyOf as SchemaNode[];
		if (variants.some((variant) => variant.type === "null")) return schema;
		return { ...schema, anyOf: [...variants, { type: "null" }] };
	}
	const types = typeList(schema.type);
	if (types.includes("null")) return schema;
	const primitive = types.every((type) => PRIMITIVE_TYPES.has(type));
	if (primitive && !("enum" in schema) && !("const" in schema)) return { ...schema, type: [...types, "null"] };
	const { description, ...rest } = schema;
	const wrapped: SchemaNode = { anyOf: [rest, { type: "null" }] };
	if (description !== undefined) wrapped.description = description;
	return wrapped;
}

function isObjectSchema(schema: SchemaNode): boolean {
	return (
		typeof schema === "object" &&
		schema !== null &&
		(typeList(schema.type).includes("object") || "properties" in schema)
	);
}

function typeList(type: unknown): string[] {
	if (typeof type === "string") return [type];
	if (Array.isArray(type)) return type.filter((entry): entry is string => typeof entry === "string");
	return [];
}

function pointer(path: string, segment: string): string {
	return `${path}/${segment.replaceAll("~", "~0").replaceAll("/", "~1")}`;
}
