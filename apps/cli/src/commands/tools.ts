import { describeMcpStatus } from "@gantry/mcp";
import type { CliOptions } from "../args.js";
import { mcpServersOf } from "../mcp-servers.js";
import { selectModel } from "../model-selection.js";
import { policyOptionsOf, readRunPermissions } from "../permission-settings.js";
import { untrustedNotice } from "../project-requests.js";
import { describeSandbox } from "../sandbox-status.js";
import { openSession } from "../session-factory.js";
import { settingsModelDefaults, withSettingsDefaults } from "../settings-model.js";
import { formatToolTable, listTools, shortFileName } from "../tool-list.js";
import { trustFolder } from "../trust.js";
import { themeFor } from "../tui/theme.js";
import { resolveWorkingFolder } from "../working-folder.js";

/**
 * `gantry tools [--json]`: every registered tool (builtins, extensions) with its exposure, whether it is
 * active and callable, its annotations, which permission rule or mode decides its calls and the file it
 * came from, and its source — after `--tools`, `--exclude-tools`, `--no-tools`, `-e` and the permission
 * options. A folder that is not trusted never starts its `.mcp.json` servers here; one `gantry:` line on
 * stderr says what it asked for. Needs no API key and writes no session file.
 */
export async function runToolsCommand(
	options: CliOptions,
	stdout: NodeJS.WriteStream,
	stderr: NodeJS.WriteStream,
): Promise<number> {
	const cwd = resolveWorkingFolder(options.cwd);
	if (options.trust) await trustFolder({ cwd });
	const { model } = selectModel(withSettingsDefaults(options, await settingsModelDefaults(cwd)));
	const run = await readRunPermissions(options, { cwd });
	const untrusted = await untrustedNotice(run, { cwd });
	if (untrusted !== undefined) stderr.write(`gantry: ${untrusted}\n`);
	const session = await openSession({
		options,
		cwd,
		model,
		runPermissions: run,
		onNotice: (message) => stderr.write(`gantry: ${message}\n`),
	});
	try {
		// MCP servers start in the background; their tools are listed once they are ready (or failed).
		await mcpServersOf(session)?.settled(15_000);
		const entries = listTools(session, policyOptionsOf(run, run.permissionMode), run.origins);
		if (options.json) stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
		else {
			const theme = themeFor(stdout);
			const servers = (mcpServersOf(session)?.servers() ?? []).map((server) =>
				theme.muted(`MCP server ${server.name} (${server.transport}): ${describeMcpStatus(server.status)}`),
			);
			const mode = theme.muted(
				`Mode: ${run.permissionMode}${run.origins.modeSource === undefined ? "" : ` (from ${shortFileName(run.origins.modeSource, cwd)})`}`,
			);
			const ignored = run.loaded.ignored
				.filter((item) => !(run.loaded.withheld ?? []).includes(item))
				.map((item) => theme.muted(`Not used: ${item}`));
			const sandbox = theme.muted(describeSandbox(session, options.sandbox));
			stdout.write(`${[...formatToolTable(entries, theme), mode, sandbox, ...servers, ...ignored].join("\n")}\n`);
		}
		return 0;
	} finally {
		await session.dispose();
	}
}
