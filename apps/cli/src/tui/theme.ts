import { plainTheme, type Theme } from "@gantry/extensions";

const style =
	(open: number, close: number) =>
	(text: string): string =>
		text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`;

/**
 * A `Theme` that styles with ANSI escape sequences. Each style closes with its own reset code (not a
 * full reset), so styles nest: `theme.bold(theme.error("x"))` is bold and red.
 */
export const ansiTheme: Theme = {
	bold: style(1, 22),
	dim: style(2, 22),
	italic: style(3, 23),
	accent: style(36, 39),
	success: style(32, 39),
	warning: style(33, 39),
	error: style(31, 39),
	muted: style(90, 39),
};

/**
 * Whether to colour what goes to `stream`: never with `NO_COLOR`, always with `FORCE_COLOR` (other than
 * `0`), else when the stream is a terminal that is not `dumb`.
 */
export function shouldUseColor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
	if (env.FORCE_COLOR !== undefined && env.FORCE_COLOR !== "") return env.FORCE_COLOR !== "0";
	return stream.isTTY === true && env.TERM !== "dumb";
}

/** The ANSI theme when `stream` gets colour, else the plain one. */
export function themeFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): Theme {
	return shouldUseColor(stream, env) ? ansiTheme : plainTheme;
}
