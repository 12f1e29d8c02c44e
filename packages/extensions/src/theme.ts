/** Colour and style helpers for renderers; each returns the text styled (or unchanged without colour). */
export interface Theme {
	bold(text: string): string;
	dim(text: string): string;
	italic(text: string): string;
	accent(text: string): string;
	success(text: string): string;
	warning(text: string): string;
	error(text: string): string;
	muted(text: string): string;
}

const identity = (text: string) => text;

/** A theme that adds no styling: for logs, tests and non-terminal UIs. */
export const plainTheme: Theme = {
	bold: identity,
	dim: identity,
	italic: identity,
	accent: identity,
	success: identity,
	warning: identity,
	error: identity,
	muted: identity,
};
