import type { ExtensionUI } from "./extension-api.js";

/** The UI of a runner without one: nobody can answer, so `confirm` says no and `select` picks nothing. */
export const NO_UI: ExtensionUI = {
	confirm: async () => false,
	select: async () => undefined,
	notify: () => {},
};
