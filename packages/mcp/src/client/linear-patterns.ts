import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv-provider.js";
import type { JsonSchemaType, jsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/types.js";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { RE2 } from "re2-wasm";

// A server's JSON Schema is untrusted input: a `pattern` like `^(a+)+$` makes JavaScript's backtracking
// RegExp take minutes on a 35-character string (183 s measured), and it would run in the agent's own
// process. Patterns of untrusted schemas therefore run in RE2 (linear time, through WebAssembly), and
// the few that RE2 cannot run (lookaround, backreferences) are not enforced at all.

/** Ajv's `code.regExp`: RE2 in Unicode mode (the only mode re2-wasm has; Ajv asks for "u" anyway). */
const re2Engine = Object.assign(
	(source: string, flags: string) => new RE2(source, flags.includes("u") ? flags : `${flags}u`),
	{ code: 'require("re2-wasm").RE2' },
);

/** One Ajv whose patterns run in RE2, for every untrusted schema of the process. */
const linearAjv = new Ajv({
	strict: false,
	allErrors: true,
	validateSchema: false,
	logger: false,
	code: { regExp: re2Engine },
});

/** Whether RE2 runs `pattern` (as Ajv would pass it). */
function re2Accepts(pattern: string): boolean {
	try {
		re2Engine(pattern, "u");
		return true;
	} catch {
		return false;
	}
}

/** Keywords whose value is one subschema. */
const ONE = [
	"items",
	"additionalItems",
	"contains",
	"not",
	"if",
	"then",
	"else",
	"propertyNames",
	"additionalProperties",
	"unevaluatedItems",
	"unevaluatedProperties",
];
/** Keywords whose value is an array of subschemas. */
const MANY = ["allOf", "anyOf", "oneOf", "prefixItems", "items"];
/** Keywords whose value maps names to subschemas. */
const BY_NAME = ["properties", "$defs", "definitions", "dependentSchemas"];

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema =>
	typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A copy of `schema` for the given use. `"plain"`: no `pattern` or `patternProperties` anywhere (for the
 * session's validator, which runs JavaScript RegExps), each pattern named in its schema's description so
 * the model still reads it. `"linear"`: only the patterns RE2 runs (for `linearAjv`). Where
 * `patternProperties` go, `additionalProperties` go too, so properties they would have matched pass.
 */
function rewrite(schema: unknown, use: "plain" | "linear"): unknown {
	if (!isSchema(schema)) return schema;
	const copy: Schema = { ...schema };
	if (typeof copy.pattern === "string") {
		const pattern = copy.pattern;
		if (use === "plain") {
			delete copy.pattern;
			const said = `Must match the regular expression ${pattern}.`;
			copy.description = typeof copy.description === "string" ? `${copy.description} (${said})` : said;
		} else if (!re2Accepts(pattern)) delete copy.pattern;
	} else delete copy.pattern;
	if (isSchema(copy.patternProperties)) {
		const kept: Schema = {};
		for (const [pattern, sub] of Object.entries(copy.patternProperties))
			if (use === "linear" && re2Accepts(pattern)) kept[pattern] = rewrite(sub, use);
		const all = Object.keys(copy.patternProperties).length === Object.keys(kept).length;
		if (use === "linear" && all) copy.patternProperties = kept;
		else {
			delete copy.patternProperties;
			delete copy.additionalProperties;
		}
	}
	for (const key of ONE) if (isSchema(copy[key])) copy[key] = rewrite(copy[key], use);
	for (const key of MANY)
		if (Array.isArray(copy[key])) copy[key] = (copy[key] as unknown[]).map((sub) => rewrite(sub, use));
	for (const key of BY_NAME) {
		const group = copy[key];
		if (!isSchema(group)) continue;
		const next: Schema = {};
		for (const [name, sub] of Object.entries(group)) next[name] = rewrite(sub, use);
		copy[key] = next;
	}
	return copy;
}

/** Whether `schema` has a `pattern` or `patternProperties` anywhere (cheap enough to ask on every tool). */
function hasPatterns(schema: unknown): boolean {
	return /"pattern(?:Properties)?"\s*:/.test(JSON.stringify(schema ?? null));
}

/** An untrusted input schema split for its two checks. */
export interface UntrustedSchema {
	/** For the session's validator and the model: no patterns. */
	plain: unknown;
	/** Checks the arguments against the patterns in RE2 (undefined when there are none). */
	checkPatterns?: (value: unknown) => string[] | undefined;
}

/** Splits a server's input schema into what the session validates and the patterns checked in RE2. */
export function untrustedSchema(schema: unknown): UntrustedSchema {
	if (!hasPatterns(schema)) return { plain: schema };
	const plain = rewrite(schema, "plain");
	let validate: ValidateFunction;
	try {
		validate = linearAjv.compile(rewrite(schema, "linear") as Schema);
	} catch {
		return { plain };
	}
	return {
		plain,
		checkPatterns: (value) => (validate(value) ? undefined : (validate.errors ?? []).map(describeError)),
	};
}

function describeError(error: ErrorObject): string {
	const path = error.instancePath === "" ? "root" : error.instancePath.slice(1).replaceAll("/", ".");
	return `  - ${path}: ${error.message ?? "is invalid"}`;
}

/**
 * The SDK client's validator of `outputSchema`s (it checks every `structuredContent` against its tool's),
 * with patterns in RE2 and the ones RE2 cannot run left out.
 */
export class LinearSchemaValidator implements jsonSchemaValidator {
	readonly #inner = new AjvJsonSchemaValidator(linearAjv);

	getValidator<T>(schema: JsonSchemaType) {
		const linear = hasPatterns(schema) ? (rewrite(schema, "linear") as JsonSchemaType) : schema;
		return this.#inner.getValidator<T>(linear);
	}
}
