import type { Model } from "./types.js";

/** A warning about how a model is used (a deprecated model, a provider SDK's own warning). */
export interface ProviderWarning {
	/** Identifies the warning: each key is reported at most once per process. */
	key: string;
	/** One line for a person, saying what to do. */
	message: string;
	/** The model id it concerns, when it concerns one. */
	model?: string;
}

/** Receives each warning the first time it happens. Must not throw. */
export type ProviderWarningListener = (warning: ProviderWarning) => void;

const listeners = new Set<ProviderWarningListener>();
const reported = new Set<string>();

/**
 * Calls `listener` with every provider warning from now on, each at most once per process (a deprecated
 * model warns once, not once per request and retry as its SDK does). While no listener is registered,
 * warnings go to `console.warn`, once each. Returns a function that removes the listener.
 *
 * @example
 * const stop = onProviderWarning((warning) => process.stderr.write(`app: ${warning.message}\n`));
 */
export function onProviderWarning(listener: ProviderWarningListener): () => void {
	listeners.add(listener);
	return () => {
		listeners.delete(listener);
	};
}

/** Reports `warning` unless its key was reported before in this process. */
export function reportProviderWarning(warning: ProviderWarning): void {
	if (reported.has(warning.key)) return;
	reported.add(warning.key);
	if (listeners.size === 0) {
		console.warn(`@gantry/ai: ${warning.message}`);
		return;
	}
	for (const listener of listeners) {
		try {
			listener(warning);
		} catch {
			// A listener's failure must not break the request that warned.
		}
	}
}

/** The deprecation warning of a model whose provider announced its retirement, or undefined. */
export function modelDeprecationWarning(model: Model): ProviderWarning | undefined {
	if (model.retiresOn === undefined) return undefined;
	return deprecationWarning(model.id, model.retiresOn);
}

/** The one deprecation warning of a model id, whoever noticed it (the catalogue or the provider's SDK). */
export function deprecationWarning(id: string, retiresOn: string): ProviderWarning {
	return {
		key: `deprecated:${id}`,
		model: id,
		message: `the model ${id} is deprecated and reaches its end of life on ${retiresOn}; choose a current model (gantry --model, or one of getModels()).`,
	};
}
