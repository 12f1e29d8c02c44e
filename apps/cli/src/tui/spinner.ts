const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Milliseconds between two spinner frames. */
export const SPINNER_INTERVAL_MS = 80;

/** The spinner frame to show at `now` (milliseconds). */
export function spinnerFrame(now: number): string {
	return FRAMES[Math.floor(now / SPINNER_INTERVAL_MS) % FRAMES.length];
}
