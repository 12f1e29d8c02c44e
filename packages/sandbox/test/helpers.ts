import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, realpath, rm } from "node:fs/promises";
import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AgentToolResult } from "@gantry/agent";
import type { ExtensionToolContext } from "@gantry/extensions";
import { createBashToolDefinition, createLocalWorkspace, type Workspace } from "@gantry/tools";
import { afterEach, beforeEach } from "vitest";
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

/**
 * A fresh place for each test of the calling file or describe block, removed after it together with the
 * workspaces the test put in `workspaces` (closed first) and the servers `answering` started. `place` is the
 * current test's.
 */
export function placePerTest(): {
	readonly place: Place;
	workspaces: SandboxedWorkspace[];
	/** An HTTP server on 127.0.0.1 answering `body`, closed after the test: its port. */
	answering(body: string): Promise<number>;
} {
	let current: Place | undefined;
	const workspaces: SandboxedWorkspace[] = [];
	const servers: HttpServer[] = [];
	beforeEach(async () => {
		current = await makePlace();
	});
	afterEach(async () => {
		await Promise.all(workspaces.splice(0).map((workspace) => workspace.close()));
		await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
		await removePlace(current);
		current = undefined;
	});
	return {
		get place() {
			if (!current) throw new Error("there is a place only while a test runs");
			return current;
		},
		workspaces,
		answering: (body) => answeringServer(body, (server) => servers.push(server)),
	};
}

/** `workspace` as it would be on a machine where `program` is not on PATH. */
export function withoutProgram(workspace: Workspace, program: string): Workspace {
	const { processes } = workspace;
	return {
		...workspace,
		processes: {
			...processes,
			which: (name, lookup) => (name === program ? Promise.resolve(undefined) : processes.which(name, lookup)),
		},
	};
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

/**
 * An HTTP server on 127.0.0.1 that answers every request with `body`, handed to `keep` for the test to close;
 * its port.
 */
export async function answeringServer(body: string, keep: (server: HttpServer) => void): Promise<number> {
	const server = createHttpServer((_request, response) => response.end(body));
	keep(server);
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	return (server.address() as AddressInfo).port;
}

/**
 * curl to a server on the host's loopback through whatever proxy the sandbox gives the command (NO_PROXY,
 * which names 127.0.0.1, is dropped so that the request goes through it); prints the body, or fails.
 */
export const curlThroughProxy = (port: number) =>
	`env -u NO_PROXY -u no_proxy curl -fsS --max-time 20 http://127.0.0.1:${port}/`;

/** The processes `pid` has started that still run (its children, from every thread's list in /proc). */
export function childProcessIds(pid: number | string = process.pid): string[] {
	try {
		return readdirSync(`/proc/${pid}/task`).flatMap((task) =>
			readFileSync(`/proc/${pid}/task/${task}/children`, "utf8").trim().split(/\s+/).filter(Boolean),
		);
	} catch {
		return [];
	}
}

/** The programs this process has started and that still run (its children, read from /proc). */
export function childPrograms(): string[] {
	return childProcessIds().flatMap((pid) => {
		try {
			return [readFileSync(`/proc/${pid}/comm`, "utf8").trim()];
		} catch {
			return [];
		}
	});
}

/** The host processes whose command line (its arguments joined by spaces) passes `test`: their ids. */
export function processesWhere(test: (commandLine: string) => boolean): string[] {
	return readdirSync("/proc")
		.filter((name) => /^\d+$/.test(name))
		.filter((pid) => {
			try {
				return test(readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim());
			} catch {
				return false;
			}
		});
}
