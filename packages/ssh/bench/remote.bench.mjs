// Benchmark: the builtins over loopback SSH next to the same calls on this machine, same folder contents.
// Rows: read one 2000-line page of a 20,000-line file, grep a word over 200 files, one edit, bash `echo`.
// The "floor" column is the local call, so the ratio is SSH / local and the README quotes the overhead
// per call (remote median minus local median). Needs root (the test sshd creates its user); run after
// `tsc -p tsconfig.build.json` (pnpm bench does).
import { chown, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
	createBashToolDefinition,
	createEditToolDefinition,
	createGrepToolDefinition,
	createLocalWorkspace,
	createReadToolDefinition,
} from "@gantry/tools";
import { medianMs, printTable } from "../../tools/bench/harness.mjs";
import { createSshWorkspace } from "../dist/index.js";
import { startTestSshServer } from "../dist/testing/index.js";

const RUNS = Number(process.env.GANTRY_BENCH_RUNS ?? 15);

async function fillFolder(folder, owner) {
	const lines = Array.from({ length: 20_000 }, (_, index) => `${index}\tline ${index % 97} of the bench file`);
	await writeFile(join(folder, "big.txt"), `${lines.join("\n")}\n`);
	await mkdir(join(folder, "src"));
	for (let index = 0; index < 200; index++) {
		const body = Array.from(
			{ length: 50 },
			(_, line) => `export const value${line} = ${index * line}; // ${line % 13 === 0 ? "needle" : "hay"}`,
		);
		await writeFile(join(folder, "src", `file-${index}.ts`), `${body.join("\n")}\n`);
	}
	await writeFile(join(folder, "edit.txt"), "counter = 0\n");
	if (owner) {
		for (const path of [folder, join(folder, "big.txt"), join(folder, "src"), join(folder, "edit.txt")]) {
			await chown(path, owner.uid, owner.gid);
		}
		for (let index = 0; index < 200; index++)
			await chown(join(folder, "src", `file-${index}.ts`), owner.uid, owner.gid);
	}
}

function toolsFor(workspace) {
	return {
		read: createReadToolDefinition(workspace),
		grep: createGrepToolDefinition(workspace),
		edit: createEditToolDefinition(workspace),
		bash: createBashToolDefinition(workspace),
	};
}

function cases(tools) {
	let counter = 0;
	return {
		"read page (lines 10000-11999)": () =>
			tools.read.execute("bench", { path: "big.txt", offset: 10_000, limit: 2000 }),
		"grep needle over 200 files": () => tools.grep.execute("bench", { pattern: "needle", path: "src" }),
		"edit one line": () => {
			const next = counter + 1;
			const call = tools.edit.execute("bench", {
				path: "edit.txt",
				edits: [{ oldText: `counter = ${counter}`, newText: `counter = ${next}` }],
			});
			counter = next;
			return call;
		},
		"bash echo": () => tools.bash.execute("bench", { command: "echo hello" }),
	};
}

const server = await startTestSshServer();
const localFolder = await mkdtemp(join(tmpdir(), "gantry-bench-local-"));
const remoteFolder = await server.makeRemoteFolder();
let remote;
try {
	await fillFolder(localFolder);
	await fillFolder(remoteFolder, { uid: server.uid, gid: server.gid });
	const local = createLocalWorkspace(localFolder);
	remote = await createSshWorkspace({
		host: server.host,
		port: server.port,
		username: server.username,
		privateKey: server.clientKey,
		hostKey: server.hostKeyLine,
		cwd: remoteFolder,
	});
	const localCases = cases(toolsFor(local));
	const remoteCases = cases(toolsFor(remote));
	const rows = [];
	for (const name of Object.keys(localCases)) {
		const floorMs = await medianMs(localCases[name], { runs: RUNS, warmup: 2 });
		const gantryMs = await medianMs(remoteCases[name], { runs: RUNS, warmup: 2 });
		rows.push({
			case: name,
			gantryMs,
			floor: "same call, local",
			floorMs,
			note: `+${(gantryMs - floorMs).toFixed(1)} ms per call`,
		});
	}
	printTable(`builtins over loopback SSH (gantry column) vs local (floor), median of ${RUNS}`, rows);
} finally {
	await remote?.close();
	await server.stop();
	await rm(localFolder, { recursive: true, force: true });
	await rm(remoteFolder, { recursive: true, force: true });
}
