import type { ToolInfo } from "./extension-api.js";
import type { ToolDefinition } from "./tool-definition.js";
import { createToolInfo, isToolActiveByDefault } from "./tool-info.js";

/** Who registered a tool: one added extension (two extensions added under the same name stay apart). */
export interface ToolOwner {
	readonly source: string;
}

interface Slot {
	/** Undefined while the tool is unregistered: the slot keeps its place for a later registration. */
	definition: ToolDefinition | undefined;
	owner: ToolOwner;
}

/** What `add` did with a definition. */
export type AddToolOutcome =
	| { kind: "added" }
	| { kind: "replaced" }
	/** Another extension holds the name; nothing changed. */
	| { kind: "conflict"; conflictsWith: string };

/**
 * The runner's tools by name, in the order each name was first registered. The extension that holds a
 * name may register it again (replacing it) or unregister it; another extension cannot take it while
 * it is registered. An unregistered name keeps its place, so a tool that comes back returns there.
 */
export class RegisteredTools {
	readonly #slots = new Map<string, Slot>();

	add(definition: ToolDefinition, owner: ToolOwner): AddToolOutcome {
		const slot = this.#slots.get(definition.name);
		if (slot?.definition !== undefined && slot.owner !== owner) {
			return { kind: "conflict", conflictsWith: slot.owner.source };
		}
		const replaced = slot?.definition !== undefined;
		if (slot === undefined) this.#slots.set(definition.name, { definition, owner });
		else {
			slot.definition = definition;
			slot.owner = owner;
		}
		return { kind: replaced ? "replaced" : "added" };
	}

	/** Unregisters `name` when `owner` holds it; returns whether it did. */
	remove(name: string, owner: ToolOwner): boolean {
		const slot = this.#slots.get(name);
		if (slot?.definition === undefined || slot.owner !== owner) return false;
		slot.definition = undefined;
		return true;
	}

	/** Forgets names completely (an extension that threw while loading). */
	forget(names: readonly string[]): void {
		for (const name of names) this.#slots.delete(name);
	}

	definitions(): ToolDefinition[] {
		const definitions: ToolDefinition[] = [];
		for (const slot of this.#slots.values()) if (slot.definition !== undefined) definitions.push(slot.definition);
		return definitions;
	}

	get(name: string): { definition: ToolDefinition; source: string } | undefined {
		const slot = this.#slots.get(name);
		return slot?.definition === undefined ? undefined : { definition: slot.definition, source: slot.owner.source };
	}

	sourceOf(name: string): string | undefined {
		return this.get(name)?.source;
	}

	infos(): ToolInfo[] {
		const infos: ToolInfo[] = [];
		for (const slot of this.#slots.values()) {
			if (slot.definition !== undefined) infos.push(createToolInfo(slot.definition, slot.owner.source));
		}
		return infos;
	}

	/** Without a host: the requested names that are registered and not hidden, else the default-active tools. */
	activeNames(requested: readonly string[] | undefined): string[] {
		if (requested === undefined)
			return this.definitions()
				.filter(isToolActiveByDefault)
				.map((tool) => tool.name);
		const reachable = (name: string) => {
			const tool = this.get(name);
			return tool !== undefined && tool.definition.exposure !== "hidden";
		};
		return [...new Set(requested)].filter(reachable);
	}
}
