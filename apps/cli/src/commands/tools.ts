import { describeMcpStatus } from "@gantry/mcp";
import type { CliOptions } from "../args.js";
import { mcpServersOf } from "../mcp-servers.js";
import { selectModel } from "../model-selection.js";
import { permissionOptionsFor } from "../permission-settings.js";
import { openSession } from "../session-factory.js";
import { formatToolTable, listTools } from "../tool-list.js";
import { themeFor } from "../tui/theme.js";
import { resolveWorkingFolder } from "../working-folder.js";

/**
 * `gantry tools [--json]`: every registered tool (builtins, extensions) with its exposure, whether it is
 * active and callable, its annotations, which permission rule decides its calls and its source — after `--tools`, `--exclude-tools`, `--no-tools` and
 * `-e`. Needs no API key and writes no session file.
 */
export async function runToolsCommand(options: CliOptions, stdout: NodeJS.WriteStream): Promise<number> {
	const cwd = resolveWorkingFolder(options.cwd);
	const { model } = selectModel(options);
	const session = await openSession({ options, cwd, model });
	try {
		// MCP servers start in the background; their tools are listed once they are ready (or failed).
		await mcpServersOf(session)?.settled(15_000);
		const entries = listTools(session, await permissionOptionsFor(options, { cwd }));
		if (options.json) stdout.write(`${JSON.stringify(entries, null, 2)}\n`);
		else {
			const theme = themeFor(stdout);
			const servers = (mcpServersOf(session)?.servers() ?? []).map((server) =>
				theme.muted(`MCP server ${server.name} (${server.transport}): ${describeMcpStatus(server.status)}`),
			);
			stdout.write(`${[...formatToolTable(entries, theme), ...servers].join("\n")}\n`);
		}
		return 0;
	} finally {
		await session.dispose();
	}
}
