import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { createBashToolDefinition, createLocalWorkspace, type Workspace } from "@gantry/tools";
import {
	createSandboxedWorkspace,
	type SandboxedWorkspace,
	type SandboxedWorkspaceOptions,
	type SandboxSettings,
} from "../src/index.js";

const noContext = undefined as unknown as ExtensionToolContext;

/** A project folder, a home folder and a temp folder of the test's own, all real, removed afterwards. */
export interface Place {
	root: string;
	project: string;
	home: string;
	temp: string;
	/** A folder outside every writable one. */
	outside: string;
}

export async function makePlace(): Promise<Place> {
	const root = await realpath(await mkdtemp(join(tmpdir(), "gantry-sandbox-test-")));
	const place = {
		root,
		project: join(root, "project"),
		home: join(root, "home"),
		temp: join(root, "temp"),
		outside: join(root, "outside"),
	};
	await Promise.all([place.project, place.home, place.temp, place.outside].map((folder) => mkdir(folder)));
	return place;
}

export async function removePlace(place: Place | undefined): Promise<void> {
	if (place) await rm(place.root, { recursive: true, force: true });
}

/** A local workspace on the place (its home and temp folder the test's own). */
export function localWorkspace(place: Place): Workspace {
	return createLocalWorkspace(place.project, { tempDir: place.temp, home: place.home });
}

export function sandboxed(
	place: Place,
	settings: SandboxSettings = {},
	options?: SandboxedWorkspaceOptions,
): Promise<SandboxedWorkspace> {
	return createSandboxedWorkspace(localWorkspace(place), { enabled: true, ...settings }, options);
}

export function textOf(result: AgentToolResult<unknown>): string {
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

/** What one bash call gave. */
export interface BashRun {
	result: AgentToolResult<{ exitCode: number | null } | undefined>;
	text: string;
	exitCode: number | null | undefined;
}

/** Runs one bash command through the bash tool on `workspace`. */
export async function bash(
	workspace: Workspace,
	command: string,
	extra: Record<string, unknown> = {},
): Promise<BashRun> {
	const tool = createBashToolDefinition(workspace, { sandboxEscape: true });
	const result = await tool.execute("call", { command, ...extra }, undefined, undefined, noContext);
	return { result, text: textOf(result), exitCode: result.details?.exitCode };
}
