/** The most pixels wide an image sent to a model may be when the model states no limit. */
export const DEFAULT_IMAGE_MAX_WIDTH = 2000;
/** The most pixels high an image sent to a model may be when the model states no limit. */
export const DEFAULT_IMAGE_MAX_HEIGHT = 2000;
/** The most base64 characters an image sent to a model may take when the model states no limit (4.5 MB). */
export const DEFAULT_IMAGE_MAX_BYTES = 4.5 * 1024 * 1024;

/** Size limits for images sent to a model: the shape of a model's `inputLimits.images.resize`. */
export interface ImageResizeLimits {
	/** Widest image in pixels. */
	maxWidth: number;
	/** Tallest image in pixels. */
	maxHeight: number;
	/** Largest image as base64 text, in bytes. Default `DEFAULT_IMAGE_MAX_BYTES` (4.5 MB). */
	maxBytes?: number;
}

function positive(value: number | undefined, fallback: number): number {
	return typeof value === "number" && Number.isFinite(value) && value >= 1 ? Math.floor(value) : fallback;
}

/** Fills in the defaults (2000 × 2000, 4.5 MB) for missing or invalid limits. */
export function resolveImageLimits(limits?: Partial<ImageResizeLimits>): Required<ImageResizeLimits> {
	return {
		maxWidth: positive(limits?.maxWidth, DEFAULT_IMAGE_MAX_WIDTH),
		maxHeight: positive(limits?.maxHeight, DEFAULT_IMAGE_MAX_HEIGHT),
		maxBytes: positive(limits?.maxBytes, DEFAULT_IMAGE_MAX_BYTES),
	};
}
