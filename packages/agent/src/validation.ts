import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { AgentTool, AgentToolCall } from "./types.js";

// Two process-wide instances, each validator compiled once per schema object and cached. Arguments are
// first checked exactly as sent: Ajv's `coerceTypes` rewrites values while it tries `anyOf` branches, so
// a valid `null` or a valid string could be coerced into the first branch's type ("" or a number). Only
// arguments that fail the exact check go through the coercing instance ("42" for a number). Both fill
// schema defaults into the arguments the tool receives.
const exactAjv = new Ajv({ allErrors: false, useDefaults: true, strict: false });
const coercingAjv = new Ajv({ coerceTypes: true, allErrors: true, useDefaults: true, strict: false });

interface Validators {
	exact: ValidateFunction;
	coercing?: ValidateFunction;
}

const validators = new WeakMap<object, Validators>();

type SchemaObject = Record<string, unknown>;

function validatorsFor(schema: object): Validators {
	let entry = validators.get(schema);
	if (entry === undefined) {
		entry = { exact: exactAjv.compile(schema) };
		validators.set(schema, entry);
	}
	return entry;
}

/**
 * Checks a tool call's arguments against the tool's `parameters` schema and returns the arguments the
 * tool should receive: a copy, with `null` dropped from optional properties whose schema does not allow
 * it (strict-mode providers send `null` for omitted fields), obvious type mismatches coerced and schema
 * defaults filled in. The tool call itself is never modified.
 *
 * Throws an `Error` whose message lists every problem as `  - <path>: <message>` followed by the
 * received arguments, so a model can correct its call. A provider's `argumentsError` (unparseable
 * arguments) is reported the same way.
 */
export function validateToolArguments(tool: AgentTool, toolCall: AgentToolCall): unknown {
	return validateArguments(tool, toolCall.arguments, toolCall);
}

/**
 * The pipeline's entry: validates `value` (the arguments after `prepareArguments`) while error texts
 * show the arguments the model actually sent.
 */
export function validateArguments(tool: AgentTool, value: unknown, toolCall: AgentToolCall): unknown {
	if (toolCall.argumentsError !== undefined) {
		throw new Error(validationText(tool.name, [`  - root: ${toolCall.argumentsError}`], toolCall.arguments));
	}
	const schema = tool.parameters as SchemaObject;
	const entry = validatorsFor(schema);
	let candidate: unknown;
	try {
		candidate = copyWithoutOptionalNulls(schema, value);
	} catch (error) {
		if (!(error instanceof NotPlainDataError)) throw error;
		throw new Error(validationText(tool.name, [`  - ${error.path}: ${error.message}`], toolCall.arguments));
	}
	if (entry.exact(candidate)) return candidate;
	entry.coercing ??= coercingAjv.compile(schema);
	const coerced = copyWithoutOptionalNulls(schema, value);
	if (entry.coercing(coerced)) {
		restoreAllowedNulls(schema, value, coerced);
		return coerced;
	}
	const errors = entry.coercing.errors ?? [];
	const lines = errors.map((error) => `  - ${errorPath(error)}: ${error.message ?? "is invalid"}`);
	throw new Error(validationText(tool.name, lines, toolCall.arguments));
}

/**
 * A deep copy of JSON-like arguments, as own plain data: `__proto__`, `constructor` and `prototype` keys
 * stay ordinary properties. Throws for values that are not plain data (class instances, dates, maps…),
 * which could carry inherited properties that validation and hooks would not see.
 */
export function copyArguments(value: unknown): unknown {
	try {
		return copyWithoutOptionalNulls(undefined, value);
	} catch (error) {
		if (error instanceof NotPlainDataError)
			throw new Error(`Arguments must be plain JSON data: ${error.path} ${error.message}`);
		throw error;
	}
}

/** A value inside the arguments that is not plain data (`path` as in validation errors). */
class NotPlainDataError extends Error {
	readonly path: string;
	constructor(path: string, value: object) {
		const kind = (value as { constructor?: { name?: unknown } }).constructor?.name;
		super(
			`must be plain JSON data (got ${typeof kind === "string" && kind !== "" ? `a ${kind}` : "an object with a custom prototype"})`,
		);
		this.path = path;
	}
}

/** An object literal's prototype: this realm's `Object.prototype`, `null`, or another realm's `Object.prototype`. */
function isPlainObject(value: object): boolean {
	const prototype = Object.getPrototypeOf(value);
	if (prototype === null || prototype === Object.prototype) return true;
	return Object.getPrototypeOf(prototype) === null && prototype.constructor?.name === "Object";
}

/** Sets an own data property, also for `__proto__` (plain assignment would replace the prototype). */
function defineOwn(target: Record<string, unknown>, key: string, value: unknown): void {
	if (key === "__proto__")
		Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
	else target[key] = value;
}

function validationText(toolName: string, lines: string[], received: unknown): string {
	return `Validation failed for tool "${toolName}":\n${lines.join("\n")}\n\nReceived arguments:\n${stringify(received)}`;
}

function stringify(value: unknown): string {
	try {
		return JSON.stringify(value, null, 2) ?? String(value);
	} catch {
		return String(value);
	}
}

/** `/edits/0/oldText` → `edits.0.oldText`; the root is `root`; names the missing or extra property. */
function errorPath(error: ErrorObject): string {
	let path = error.instancePath.length > 0 ? error.instancePath.slice(1).replaceAll("/", ".") : "";
	const params = error.params as { missingProperty?: string; additionalProperty?: string };
	const property = params.missingProperty ?? params.additionalProperty;
	if (property !== undefined) path = path.length > 0 ? `${path}.${property}` : property;
	return path.length > 0 ? path : "root";
}

/**
 * A deep copy of JSON-like `value` guided by `schema`: a `null` for a property that is not required and
 * whose schema does not accept `null` is left out. Properties without a known schema keep their `null`.
 */
function copyWithoutOptionalNulls(schema: SchemaObject | undefined, value: unknown, path = ""): unknown {
	if (typeof value !== "object" || value === null) return value;
	if (Array.isArray(value)) {
		const items = schema !== undefined && isSchema(schema.items) ? schema.items : undefined;
		const copy = new Array<unknown>(value.length);
		for (let index = 0; index < value.length; index++) {
			copy[index] = copyWithoutOptionalNulls(items, value[index], path === "" ? String(index) : `${path}.${index}`);
		}
		return copy;
	}
	if (!isPlainObject(value)) throw new NotPlainDataError(path === "" ? "root" : path, value);
	const properties = schema !== undefined && isSchema(schema.properties) ? schema.properties : undefined;
	const copy: Record<string, unknown> = {};
	// Own keys only: inherited properties are not part of the arguments.
	for (const key of Object.keys(value)) {
		const item = (value as Record<string, unknown>)[key];
		const itemSchema = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
		if (item === null) {
			if (isSchema(itemSchema) && !isRequired(schema, key) && !allowsNull(itemSchema)) continue;
			defineOwn(copy, key, null);
		} else {
			const itemPath = path === "" ? key : `${path}.${key}`;
			defineOwn(copy, key, copyWithoutOptionalNulls(isSchema(itemSchema) ? itemSchema : undefined, item, itemPath));
		}
	}
	return copy;
}

/** Puts back each `null` that its schema accepts but coercion inside an `anyOf` replaced ("" or 0). */
function restoreAllowedNulls(schema: SchemaObject | undefined, original: unknown, coerced: unknown): void {
	if (typeof original !== "object" || original === null || typeof coerced !== "object" || coerced === null) return;
	if (Array.isArray(original)) {
		const items = schema !== undefined && isSchema(schema.items) ? schema.items : undefined;
		if (!Array.isArray(coerced)) return;
		for (let index = 0; index < original.length; index++) {
			if (original[index] === null && items !== undefined && allowsNull(items)) coerced[index] = null;
			else restoreAllowedNulls(items, original[index], coerced[index]);
		}
		return;
	}
	const properties = schema !== undefined && isSchema(schema.properties) ? schema.properties : undefined;
	const target = coerced as Record<string, unknown>;
	for (const key of Object.keys(original)) {
		const item = (original as Record<string, unknown>)[key];
		const itemSchema = properties !== undefined && Object.hasOwn(properties, key) ? properties[key] : undefined;
		if (!isSchema(itemSchema) || !Object.hasOwn(target, key)) continue;
		if (item === null) {
			if (allowsNull(itemSchema)) defineOwn(target, key, null);
		} else {
			restoreAllowedNulls(itemSchema, item, target[key]);
		}
	}
}

function isSchema(value: unknown): value is SchemaObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function isRequired(schema: SchemaObject | undefined, key: string): boolean {
	const required = schema?.required;
	return Array.isArray(required) && required.includes(key);
}

function allowsNull(schema: SchemaObject): boolean {
	const type = schema.type;
	if (type === undefined && schema.anyOf === undefined && schema.oneOf === undefined) {
		// No type constraint at all (or only a const/enum): null is acceptable unless those exclude it.
		if (schema.const !== undefined) return schema.const === null;
		if (Array.isArray(schema.enum)) return schema.enum.includes(null);
		return schema.properties === undefined && schema.items === undefined;
	}
	if (type === "null" || (Array.isArray(type) && type.includes("null"))) return true;
	if (schema.nullable === true) return true;
	for (const branches of [schema.anyOf, schema.oneOf]) {
		if (Array.isArray(branches) && branches.some((branch) => isSchema(branch) && allowsNull(branch))) return true;
	}
	return false;
}
