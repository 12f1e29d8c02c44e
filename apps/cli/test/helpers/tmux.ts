import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { rmSync } from "node:fs";
import { join } from "node:path";

/** Whether tmux is installed (CI installs it; see `.ci/run`). */
export const HAS_TMUX = spawnSync("tmux", ["-V"], { stdio: "ignore" }).status === 0;

function quote(word: string): string {
	return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A program running in a real pseudo-terminal: a detached tmux session on its own server socket (one per
 * test, so tests never share a server). The screen is read with `capture-pane`, keys are sent with
 * `send-keys`.
 */
export class TmuxTerminal {
	readonly #socket: string;

	private constructor(socket: string) {
		this.#socket = socket;
	}

	/**
	 * Starts `command` in `cwd` with exactly `env` (plus PATH and TERM). When the program ends, the pane
	 * shows `EXITED:<code>` and stays open for inspection.
	 */
	static start(
		command: string[],
		options: { cwd: string; env: Record<string, string>; width?: number; height?: number },
	) {
		const socket = `gantry-test-${randomBytes(4).toString("hex")}`;
		const env = { PATH: process.env.PATH ?? "", TERM: "screen-256color", ...options.env };
		const line = [
			"env -i",
			...Object.entries(env).map(([key, value]) => quote(`${key}=${value}`)),
			...command.map(quote),
			"; echo EXITED:$?; sleep 600",
		].join(" ");
		execFileSync("tmux", [
			"-L",
			socket,
			"-f",
			"/dev/null",
			"new-session",
			"-d",
			"-x",
			String(options.width ?? 100),
			"-y",
			String(options.height ?? 40),
			"-c",
			options.cwd,
			line,
		]);
		return new TmuxTerminal(socket);
	}

	/** The screen and its scrollback as plain text (no colours), wrapped lines joined. */
	capture(): string {
		return execFileSync("tmux", ["-L", this.#socket, "capture-pane", "-p", "-J", "-S", "-500"], { encoding: "utf8" });
	}

	/** Types text literally. */
	type(text: string): void {
		execFileSync("tmux", ["-L", this.#socket, "send-keys", "-l", text]);
	}

	/** Types a line and presses Enter: what a user does to send a prompt or a slash command. */
	submit(text: string): void {
		this.type(text);
		this.press("Enter");
	}

	/** Pastes `text` as a terminal paste (bracketed when the program asked for it), new lines kept. */
	paste(text: string): void {
		execFileSync("tmux", ["-L", this.#socket, "set-buffer", "--", text]);
		execFileSync("tmux", ["-L", this.#socket, "paste-buffer", "-p", "-d"]);
	}

	/** Sends named keys: `Enter`, `C-c`, `Escape`, … */
	press(...keys: string[]): void {
		execFileSync("tmux", ["-L", this.#socket, "send-keys", ...keys]);
	}

	/** Polls the screen until `expected` shows up; rejects with the screen when it does not in time. */
	async waitFor(expected: string | RegExp, timeoutMs = 30_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		let screen = "";
		while (Date.now() < deadline) {
			screen = this.capture();
			if (typeof expected === "string" ? screen.includes(expected) : expected.test(screen)) return screen;
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
		throw new Error(`Timed out waiting for ${String(expected)}. The screen:\n${screen}`);
	}

	/** Stops the tmux server of this terminal (and the program in it) and removes its socket file. */
	kill(): void {
		spawnSync("tmux", ["-L", this.#socket, "kill-server"], { stdio: "ignore" });
		const folder = join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`);
		rmSync(join(folder, this.#socket), { force: true });
	}
}
