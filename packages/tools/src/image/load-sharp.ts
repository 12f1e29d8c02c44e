import type sharpModule from "sharp";

let loading: Promise<typeof sharpModule> | undefined;

/**
 * sharp (libvips) takes ~130 ms to load; most sessions never touch an image, so it is loaded on first
 * use instead of at import time.
 */
export function loadSharp(): Promise<typeof sharpModule> {
	loading ??= import("sharp").then((module) => module.default);
	return loading;
}
