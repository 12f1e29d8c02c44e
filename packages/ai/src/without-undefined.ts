/**
 * `T` with every property that may hold `undefined` turned into an optional property that, when
 * present, holds a value. This is the shape `exactOptionalPropertyTypes` asks optional fields to have.
 */
export type WithoutUndefined<T extends object> = {
	[K in keyof T as undefined extends T[K] ? never : K]: T[K];
} & {
	[K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * A shallow copy of `object`'s own enumerable string-keyed properties without those whose value is
 * `undefined`. Gantry's one rule for optional properties: a field is either absent or holds a value, so
 * an option passed on from a maybe-undefined variable never overrides a default with `undefined`.
 *
 * @example
 * withoutUndefined({ model, apiKey: process.env.KEY }); // { model } when KEY is unset
 */
export function withoutUndefined<T extends object>(object: T): WithoutUndefined<T> {
	const result: Record<string, unknown> = {};
	for (const key of Object.keys(object)) {
		const value = (object as Record<string, unknown>)[key];
		if (value !== undefined) result[key] = value;
	}
	return result as WithoutUndefined<T>;
}
