export type { CheckpointSegment, TranscriptCheckpointEntry, TranscriptRewindEntry } from "./history.js";
export { CHECKPOINT_FILE_SIZE_LIMIT } from "./shadow-repository.js";
export { listTranscriptCheckpoints, type RewindTranscriptOptions, rewindTranscript } from "./transcript-rewind.js";
export type { CheckpointInfo, RewindOptions, RewindResult } from "./types.js";
