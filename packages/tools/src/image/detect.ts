/** Image formats recognised by their leading bytes. */
export type ImageFormat = "jpeg" | "png" | "gif" | "webp" | "bmp" | "tiff" | "avif" | "heic";

/** The MIME type of each recognised format. */
export const IMAGE_MIME_TYPES: Readonly<Record<ImageFormat, string>> = {
	jpeg: "image/jpeg",
	png: "image/png",
	gif: "image/gif",
	webp: "image/webp",
	bmp: "image/bmp",
	tiff: "image/tiff",
	avif: "image/avif",
	heic: "image/heic",
};

/** Formats every provider accepts as they are; anything else is converted before it reaches a model. */
const PROVIDER_FORMATS: ReadonlySet<ImageFormat> = new Set(["jpeg", "png", "gif", "webp"]);

/** How many leading bytes `detectImageFormat` needs to recognise every format. */
export const IMAGE_SIGNATURE_BYTES = 32;

/** DIB header sizes of real BMP files (core, info, v2, v3, OS/2 v2, v4, v5). */
const BMP_HEADER_SIZES: ReadonlySet<number> = new Set([12, 40, 52, 56, 64, 108, 124]);

const AVIF_BRANDS: ReadonlySet<string> = new Set(["avif", "avis"]);
const HEIC_BRANDS: ReadonlySet<string> = new Set(["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"]);

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
	if (bytes.length < at + signature.length) return false;
	return signature.every((value, index) => bytes[at + index] === value);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
	return String.fromCharCode(...bytes.subarray(start, end));
}

/**
 * Recognises an image by its content (magic bytes), never by file name. Returns `undefined` for
 * anything that is not one of the known formats. Looks at most at the first `IMAGE_SIGNATURE_BYTES`.
 */
export function detectImageFormat(bytes: Uint8Array): ImageFormat | undefined {
	if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
	if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
	if (bytes.length >= 6) {
		const head = ascii(bytes, 0, 6);
		if (head === "GIF87a" || head === "GIF89a") return "gif";
	}
	if (bytes.length >= 12 && ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
	if (bytes.length >= 18 && bytes[0] === 0x42 && bytes[1] === 0x4d) {
		const headerSize = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getInt32(14, true);
		if (BMP_HEADER_SIZES.has(headerSize)) return "bmp";
	}
	if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
	if (bytes.length >= 12 && ascii(bytes, 4, 8) === "ftyp") {
		const brand = ascii(bytes, 8, 12);
		if (AVIF_BRANDS.has(brand)) return "avif";
		if (HEIC_BRANDS.has(brand)) return "heic";
	}
	return undefined;
}

/** True for formats that providers take without conversion (JPEG, PNG, GIF, WebP). */
export function isProviderImageFormat(format: ImageFormat): boolean {
	return PROVIDER_FORMATS.has(format);
}
