/**
 * Permission gate: asks before a dangerous `bash` command runs, and blocks it when nobody can answer
 * (print mode, CI). The model sees the block reason as the tool's error result.
 *
 *     gantry -e examples/extensions/permission-gate.ts
 */
import type { ExtensionAPI } from "@gantry/extensions";

/** What makes a command dangerous, with the label shown to the person asked. */
const DANGERS: { label: string; matches: (command: string) => boolean }[] = [
	{ label: "rm -rf", matches: isRecursiveForcedRemove },
	{ label: "sudo", matches: (command) => /(^|[\s;&|(])sudo\b/.test(command) },
	{ label: "git push --force", matches: (command) => /\bgit\s+push\b.*(\s--force|\s-f\b|\s\+\S)/.test(command) },
	{ label: "mkfs", matches: (command) => /\bmkfs(\.\w+)?\b/.test(command) },
	{ label: "dd of=", matches: (command) => /\bdd\b.*\bof=/.test(command) },
	{ label: "chmod -R 777", matches: (command) => /\bchmod\b(?=.*\s-[a-zA-Z]*R)(?=.*\s0?777\b)/.test(command) },
	{ label: "curl | sh", matches: (command) => /\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(ba|z|da)?sh\b/.test(command) },
	{ label: "write to a disk device", matches: (command) => />\s*\/dev\/(sd|nvme|hd|disk)/.test(command) },
];

/** `rm` with both a recursive and a force flag, however they are spelled (`-rf`, `-fR`, `-r -f`, `--force`). */
function isRecursiveForcedRemove(command: string): boolean {
	for (const match of command.matchAll(/\brm((?:\s+-[-\w]+)+)/g)) {
		const flags = match[1] ?? "";
		const recursive = /\s-[a-zA-Z]*[rR]|\s--recursive\b/.test(flags);
		const force = /\s-[a-zA-Z]*f|\s--force\b/.test(flags);
		if (recursive && force) return true;
	}
	return false;
}

export default function permissionGate(api: ExtensionAPI): void {
	api.on("tool_call", async (event, ctx) => {
		if (event.toolName !== "bash") return;
		const command = String(event.input.command ?? "");
		const found = DANGERS.filter((danger) => danger.matches(command)).map((danger) => danger.label);
		if (found.length === 0) return;
		if (!ctx.hasUI) {
			return {
				block: true,
				reason: `Blocked a dangerous command (${found.join(", ")}): nobody is here to confirm it.`,
			};
		}
		const allowed = await ctx.ui.confirm(`Allow a dangerous command (${found.join(", ")})?`, command);
		if (!allowed) return { block: true, reason: `The user did not allow this command (${found.join(", ")}).` };
	});
}
