/** One frame a character (each a single UTF-16 unit, so `charAt` picks a whole one). */
const FRAMES = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";
/** Milliseconds between two spinner frames. */
export const SPINNER_INTERVAL_MS = 80;

/** The spinner frame to show at `now` (milliseconds). */
export function spinnerFrame(now: number): string {
	return FRAMES.charAt(Math.floor(now / SPINNER_INTERVAL_MS) % FRAMES.length);
}
