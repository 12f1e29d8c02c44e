import type { ImageContent, Model, TextContent } from "@gantry/ai";
import { processImage } from "@gantry/tools";

type Block = TextContent | ImageContent;

/**
 * Fits every image of a tool result to the model's limits (`inputLimits.images.resize`, else 2000 ×
 * 2000 pixels and 4.5 MB of base64), replacing one that cannot be used with a text note. Returns the
 * same array when there is no image, so callers can tell nothing changed.
 */
export async function normalizeImages(content: Block[], model: Model | undefined): Promise<Block[]> {
	if (!content.some((block) => block.type === "image")) return content;
	const acceptsImages = model === undefined || model.input.includes("image");
	const resize = model?.inputLimits?.images?.resize;
	const normalized: Block[] = [];
	for (const block of content) {
		if (block.type !== "image") {
			normalized.push(block);
			continue;
		}
		if (!acceptsImages) {
			normalized.push({
				type: "text",
				text: `[Image (${block.mimeType}) omitted: ${model?.id} does not accept images]`,
			});
			continue;
		}
		const processed = await processImage(block, resize);
		if (processed.image) normalized.push(processed.image);
		for (const hint of processed.hints) normalized.push({ type: "text", text: hint });
	}
	return normalized;
}
