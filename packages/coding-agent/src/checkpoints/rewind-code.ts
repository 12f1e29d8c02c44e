import type { CheckpointSegment } from "./history.js";
import { planRewind } from "./rewind-plan.js";
import type { ShadowRepository } from "./shadow-repository.js";

/** What a code rewind did, and the stretch of work it was itself. */
export interface CodeRewind {
	restored: string[];
	removed: string[];
	conflicts: string[];
	segment?: CheckpointSegment;
}

/**
 * Puts the files the session changed during `segments` (its work since a prompt, in order) back as they were
 * at the first one's start. A file that changed between two stretches (or since the last), that is a change
 * the user made, is never touched: it is a conflict.
 */
export async function rewindCode(
	repository: ShadowRepository,
	segments: readonly CheckpointSegment[],
): Promise<CodeRewind> {
	const first = segments[0];
	if (first === undefined) return { restored: [], removed: [], conflicts: [] };
	const now = (await repository.snapshot("before rewind")).commit;
	const toolFiles = new Set(segments.flatMap((segment) => segment.files));
	const userFiles = new Set<string>();
	const gaps = segments.map((segment, index) => [segment.to, segments[index + 1]?.from ?? now] as const);
	for (const [from, to] of gaps) {
		for (const change of await repository.changes(from, to)) userFiles.add(change.path);
	}
	const plan = planRewind(toolFiles, userFiles, await repository.changes(first.from, now));
	await repository.remove(plan.remove);
	await repository.restore(first.from, plan.restore);
	const after = (await repository.snapshot("after rewind")).commit;
	const result: CodeRewind = { restored: plan.restore, removed: plan.remove, conflicts: plan.conflicts };
	if (after !== now) result.segment = { from: now, to: after, files: [...plan.remove, ...plan.restore].sort() };
	return result;
}
