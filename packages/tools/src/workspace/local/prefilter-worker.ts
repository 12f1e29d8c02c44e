/** A file without a candidate (or one that cannot be opened or read): it holds no match. */
export const NO_CANDIDATE = 0;
/** A file larger than the worker's buffer: the engine searches it itself, streamed. */
export const TOO_LARGE = 1;

/**
 * What a worker answers for one file: `NO_CANDIDATE`, `TOO_LARGE`, or the file's bytes (it holds a
 * candidate position, so the engine runs the full search over them).
 */
export type PrefilterAnswer = typeof NO_CANDIDATE | typeof TOO_LARGE | ArrayBuffer;

/** How a worker looks for a candidate: the literal's bytes, or the scan regex run over the decoded text. */
export type PrefilterProbe = { bytes: Uint8Array } | { source: string; flags: string };

/** A batch of files for a worker, absolute paths in the engine's order. */
export interface PrefilterRequest {
	id: number;
	paths: string[];
	probe: PrefilterProbe;
	/** Files up to this size are read whole; the engine streams larger ones itself. */
	bufferBytes: number;
}

export interface PrefilterResponse {
	id: number;
	answers: PrefilterAnswer[];
}

/**
 * The worker, as the source text of a CommonJS script (run with `eval: true`), so it needs no file of its
 * own next to the compiled module: it works the same from the sources under test, from dist and from a
 * bundle. It reads each file the way the engine's `searchFile` reads a small one (into one buffer, up to
 * the end or a full buffer) and looks for a candidate exactly where `FileSearcher.push` looks first: the
 * literal's bytes, or the scan regex from the start of the UTF-8 decoded text. Only files with a
 * candidate travel back, so most of a tree is opened, read and dismissed on other cores.
 */
export const PREFILTER_WORKER_SOURCE = `
"use strict";
const { parentPort } = require("node:worker_threads");
const { openSync, readSync, closeSync, constants } = require("node:fs");
let scratch = Buffer.alloc(0);
function answer(path, probe, regex, size) {
	let descriptor;
	try {
		descriptor = openSync(path, constants.O_RDONLY);
	} catch {
		return ${NO_CANDIDATE};
	}
	try {
		let filled = 0;
		let count = -1;
		while (filled < size && count !== 0) {
			count = readSync(descriptor, scratch, filled, size - filled, filled);
			filled += count;
		}
		if (count !== 0) return ${TOO_LARGE};
		const bytes = scratch.subarray(0, filled);
		if (regex === undefined) {
			if (bytes.indexOf(probe.bytes) < 0) return ${NO_CANDIDATE};
		} else {
			regex.lastIndex = 0;
			if (!regex.test(bytes.toString("utf8"))) return ${NO_CANDIDATE};
		}
		const copy = new ArrayBuffer(filled);
		new Uint8Array(copy).set(bytes);
		return copy;
	} catch {
		return ${NO_CANDIDATE};
	} finally {
		try {
			closeSync(descriptor);
		} catch {}
	}
}
parentPort.on("message", (request) => {
	const { id, paths, probe, bufferBytes } = request;
	if (scratch.length !== bufferBytes) scratch = Buffer.allocUnsafeSlow(bufferBytes);
	const regex = probe.bytes === undefined ? new RegExp(probe.source, probe.flags) : undefined;
	const answers = new Array(paths.length);
	const transfer = [];
	for (let index = 0; index < paths.length; index++) {
		const result = answer(paths[index], probe, regex, bufferBytes);
		answers[index] = result;
		if (typeof result !== "number") transfer.push(result);
	}
	parentPort.postMessage({ id, answers }, transfer);
});
`;
