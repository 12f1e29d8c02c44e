import type { ExtensionUI, Theme } from "@gantry/extensions";
import type { KeyInput, KeyPress } from "./key-input.js";
import type { Screen } from "./screen.js";

/** What the terminal UI draws on and reads from. */
export interface TerminalUIOptions {
	screen: Screen;
	keys: KeyInput;
	theme: Theme;
	/** Called when Ctrl-C dismisses a question (interactive mode aborts the run). */
	onInterrupt?: () => void;
	/** Called with true when a question appears and false once it is answered (the view stops its clocks). */
	onWaiting?: (waiting: boolean) => void;
}

/** Single-key answers: each option's first letter, when no other option starts with it. */
function shortcuts(options: readonly string[]): (string | undefined)[] {
	const firsts = options.map((option) => option.trim()[0]?.toLowerCase());
	return firsts.map((letter) =>
		letter !== undefined && /[a-z0-9]/.test(letter) && firsts.filter((other) => other === letter).length === 1
			? letter
			: undefined,
	);
}

/**
 * `ExtensionUI` on the terminal: questions appear under the running tools — ↑/↓ and Enter, a number,
 * or an option's first letter answers (for the permission policy: y = yes, n = no, a = always); Esc or
 * Ctrl-C declines. Questions asked at the same time are asked one after the other. The answer stays
 * on screen as a committed line.
 */
export class TerminalUI implements ExtensionUI {
	readonly #options: TerminalUIOptions;
	#queue: Promise<unknown> = Promise.resolve();

	constructor(options: TerminalUIOptions) {
		this.#options = options;
	}

	select(title: string, options: string[]): Promise<string | undefined> {
		const asked = this.#queue.then(() => this.#ask(title, options));
		this.#queue = asked.catch(() => undefined);
		return asked;
	}

	async confirm(title: string, message?: string): Promise<boolean> {
		const heading = message === undefined || message === "" ? title : `${title}\n${message}`;
		return (await this.select(heading, ["Yes", "No"])) === "Yes";
	}

	notify(message: string, level: "info" | "warning" | "error" = "info"): void {
		const { theme, screen } = this.#options;
		const style = level === "error" ? theme.error : level === "warning" ? theme.warning : theme.accent;
		screen.commit(message.split("\n").map((line, index) => (index === 0 ? `${style("•")} ${line}` : `  ${line}`)));
	}

	#ask(title: string, options: string[]): Promise<string | undefined> {
		const { screen, keys, theme } = this.#options;
		if (options.length === 0) return Promise.resolve(undefined);
		const keysFor = shortcuts(options);
		const titleLines = title.split("\n");
		let selected = 0;
		const draw = () => {
			const lines = [
				`${theme.warning("?")} ${theme.bold(titleLines[0] ?? "")}`,
				...titleLines.slice(1).map((line) => `  ${theme.muted(line)}`),
				...options.map((option, index) => {
					const hint = keysFor[index] ? theme.muted(` (${keysFor[index]})`) : "";
					return index === selected ? `  ${theme.accent(`❯ ${option}`)}${hint}` : `    ${option}${hint}`;
				}),
				theme.muted("  ↑/↓ and Enter, or press a key; Esc declines"),
			];
			screen.setFooter(lines);
		};
		return new Promise((resolve) => {
			const finish = (answer: string | undefined) => {
				removeHandler();
				this.#options.onWaiting?.(false);
				screen.setFooter([]);
				const shown = answer === undefined ? theme.muted("(declined)") : theme.accent(answer);
				screen.commit([`${theme.warning("?")} ${titleLines[0]} ${theme.muted("›")} ${shown}`]);
				resolve(answer);
			};
			const removeHandler = keys.push((key: KeyPress) => {
				if (key.ctrl && key.name === "c") {
					finish(undefined);
					this.#options.onInterrupt?.();
				} else if (key.name === "escape") {
					finish(undefined);
				} else if (key.name === "return" || key.name === "enter") {
					finish(options[selected]);
				} else if (key.name === "up" || key.name === "down" || key.name === "tab") {
					selected = (selected + (key.name === "up" ? options.length - 1 : 1)) % options.length;
					draw();
				} else if (!key.ctrl && !key.meta) {
					const typed = key.sequence.toLowerCase();
					const byNumber = /^[1-9]$/.test(typed) ? Number(typed) - 1 : -1;
					const index = byNumber >= 0 && byNumber < options.length ? byNumber : keysFor.indexOf(typed);
					if (index >= 0) finish(options[index]);
				}
				return true;
			});
			this.#options.onWaiting?.(true);
			draw();
		});
	}
}
