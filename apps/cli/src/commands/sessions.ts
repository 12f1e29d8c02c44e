import { alignedTable } from "../aligned-table.js";
import type { CliOptions } from "../args.js";
import type { CliIo } from "../io.js";
import { openRemoteWorkspace } from "../remote/remote-session.js";
import { listSessions, localTime, type SessionSummary } from "../session-list.js";
import { themeFor } from "../tui/theme.js";
import { resolveWorkingFolder } from "../working-folder.js";

/**
 * `gantry sessions [--json]`: the saved sessions of the working folder (`--cwd`; with `--ssh`, the folder on
 * that host), newest first: id, last activity, prompts, cost and the first prompt. `--json` prints an array
 * of `SessionSummary`. Needs no key; writes nothing.
 */
export async function runSessionsCommand(options: CliOptions, io: CliIo): Promise<number> {
	const workspace = await openRemoteWorkspace(options, io.env);
	let key: string;
	try {
		key = workspace ? `${workspace.label}${workspace.cwd}` : resolveWorkingFolder(options.cwd);
	} finally {
		await workspace?.close();
	}
	const sessions = listSessions(key);
	if (options.json) {
		io.stdout.write(`${JSON.stringify(sessions, null, 2)}\n`);
		return 0;
	}
	const theme = themeFor(io.stdout, io.env);
	if (sessions.length === 0) {
		io.stdout.write(`${theme.muted(`No saved sessions for ${key} yet.`)}\n`);
		return 0;
	}
	io.stdout.write(`${formatSessionTable(sessions, theme).join("\n")}\n`);
	io.stdout.write(`${theme.muted("Go on with one: gantry --resume ID (a unique start of the id is enough)")}\n`);
	return 0;
}

/** The table `gantry sessions` prints: one line a session under a header. */
export function formatSessionTable(
	sessions: readonly SessionSummary[],
	theme: { muted(text: string): string },
): string[] {
	const rows = sessions.map((session) => [
		session.shortId,
		localTime(session.updatedAt),
		String(session.turns),
		`$${session.cost.toFixed(4)}`,
		session.firstPrompt === "" ? "(no prompt yet)" : session.firstPrompt,
	]);
	const header = ["ID", "LAST ACTIVE", "TURNS", "COST", "FIRST PROMPT"];
	const table = alignedTable(header, rows, (text) => text.length);
	return [theme.muted(table.header), ...table.rows];
}
