import { randomBytes } from "node:crypto";
import { errorText } from "@gantry/ai";
import type { Workspace } from "@gantry/tools";
import { CodingAgentError } from "../errors.js";
import { GitMissingError } from "./git-runner.js";
import {
	CheckpointHistory,
	type CheckpointSegment,
	type TranscriptCheckpointEntry,
	type TranscriptRewindEntry,
} from "./history.js";
import { rewindCode } from "./rewind-code.js";
import { ShadowRepository } from "./shadow-repository.js";
import type { CheckpointInfo, RewindOptions, RewindResult } from "./types.js";

export interface SessionCheckpointsOptions {
	/** Take file checkpoints (`AgentSessionOptions.checkpoints`); prompts are recorded either way. */
	enabled: boolean;
	/** The host and folder recorded (not a sandbox around it: the shadow repository is outside the project). */
	workspace: Workspace;
	/** The home folder on that host. */
	home: string;
	/** The session's stable id (its private index and ref are named after it). */
	sessionKey: string;
	/** What a resumed transcript recorded. */
	history?: CheckpointHistory;
	/** Writes a line to the transcript. */
	append?: (entry: TranscriptCheckpointEntry | TranscriptRewindEntry) => void;
	/** Tells the user something once (checkpoints off, a file too big). */
	notify: (message: string) => void;
	fileSizeLimit?: number;
	/** Watch a local folder so a checkpoint looks only at what changed (default true). */
	watch?: boolean;
}

/** The session's checkpoints: one before and after each prompt, the list of prompts, and rewinds. */
export class SessionCheckpoints {
	readonly history: CheckpointHistory;
	readonly #options: SessionCheckpointsOptions;
	#repository: Promise<ShadowRepository | undefined> | undefined;
	readonly #told = new Set<string>();
	#running: Promise<void> | undefined;
	/** The checkpoint before the running prompt, while it is being taken. */
	#before: Promise<unknown> | undefined;
	#closed = false;

	constructor(options: SessionCheckpointsOptions) {
		this.#options = options;
		this.history = options.history ?? new CheckpointHistory();
	}

	/** Runs one prompt between two checkpoints and records it (when it added to the conversation). */
	async around(prompt: string, messages: () => readonly unknown[], run: () => Promise<void>): Promise<void> {
		// A prompt while another runs is the agent's to refuse; it gets no checkpoints of its own.
		if (this.#running !== undefined) return run();
		const running = this.#around(prompt, messages, run);
		this.#running = running;
		try {
			await running;
		} finally {
			this.#running = undefined;
		}
	}

	/**
	 * What a tool call must wait for before it runs: the checkpoint before the prompt, while it is still being
	 * taken (a first one in a big folder takes seconds; the model is asked meanwhile). Undefined otherwise.
	 */
	beforeToolsRun(): Promise<unknown> | undefined {
		return this.#before;
	}

	/** Settles once the running prompt (with its last checkpoint) has finished. Never rejects. */
	async idle(): Promise<void> {
		await this.#running?.catch(() => undefined);
	}

	async #around(prompt: string, messages: () => readonly unknown[], run: () => Promise<void>): Promise<void> {
		const messageIndex = messages().length;
		const timestamp = Date.now();
		// The model is asked while the checkpoint is taken; tools wait for it (`beforeToolsRun`).
		const taking = this.#snapshot(`before: ${firstLine(prompt)}`);
		this.#before = taking;
		const settled = taking.finally(() => {
			if (this.#before === taking) this.#before = undefined;
		});
		try {
			await run();
		} finally {
			const before = await settled;
			const after = before === undefined ? undefined : await this.#snapshot(`after: ${firstLine(prompt)}`);
			if (messages().length > messageIndex) {
				const entry: TranscriptCheckpointEntry = {
					type: "checkpoint",
					id: randomBytes(6).toString("hex"),
					prompt,
					timestamp,
					messageIndex,
				};
				if (before !== undefined && after !== undefined) entry.segment = await this.#segment(before, after);
				this.#record(entry);
			}
		}
	}

	list(): CheckpointInfo[] {
		return this.history.prompts.map((record) => ({
			id: record.id,
			prompt: record.prompt,
			timestamp: record.timestamp,
			files: [...new Set(this.history.segmentsFrom(record).flatMap((segment) => segment.files))].sort(),
		}));
	}

	/**
	 * Rewinds to the checkpoint before prompt `id`. Throws `CodingAgentError` (`invalid_option`) for an unknown
	 * id, nothing asked, or code asked for a prompt without a file checkpoint.
	 */
	async rewind(id: string, what: RewindOptions, truncate: (messageIndex: number) => void): Promise<RewindResult> {
		if (this.#running !== undefined)
			throw new CodingAgentError("busy", "rewind: wait until the prompt has finished (or abort it)");
		const record = this.history.prompts.find((prompt) => prompt.id === id);
		if (record === undefined) {
			throw new CodingAgentError(
				"invalid_option",
				`rewind: no checkpoint ${JSON.stringify(id)} in this session; listCheckpoints() lists the ids`,
			);
		}
		const code = what?.code === true;
		const conversation = what?.conversation === true;
		if (!code && !conversation) {
			throw new CodingAgentError(
				"invalid_option",
				"rewind: say what to rewind: { code: true }, { conversation: true } or both",
			);
		}
		const segments = this.history.segmentsFrom(record);
		const repository = code ? await this.#open() : undefined;
		if (code && (repository === undefined || record.segment === undefined)) {
			throw new CodingAgentError(
				"invalid_option",
				"rewind: no file checkpoint was taken before that prompt (checkpoints were off), so its code cannot be rewound; rewind the conversation only",
			);
		}
		const result = repository === undefined ? undefined : await rewindCode(repository, segments);
		const position = this.history.prompts.indexOf(record);
		const entry: TranscriptRewindEntry = {
			type: "rewind",
			checkpoint: id,
			code,
			conversation,
			messageIndex: record.messageIndex,
			droppedPrompts: conversation ? this.history.prompts.slice(position).map((prompt) => prompt.prompt) : [],
			restored: result?.restored ?? [],
			removed: result?.removed ?? [],
			conflicts: result?.conflicts ?? [],
			timestamp: Date.now(),
		};
		if (result?.segment !== undefined) entry.segment = result.segment;
		if (conversation) truncate(record.messageIndex);
		this.#record(entry);
		return { restored: entry.restored, removed: entry.removed, conflicts: entry.conflicts };
	}

	/** Stops watching the folder; a later checkpoint lists it with git. */
	close(): void {
		this.#closed = true;
		void this.#repository?.then((repository) => repository?.close());
	}

	#record(entry: TranscriptCheckpointEntry | TranscriptRewindEntry): void {
		this.history.apply(entry);
		this.#options.append?.(entry);
	}

	async #segment(from: string, to: string): Promise<CheckpointSegment> {
		const repository = await this.#open();
		const changes = repository === undefined ? [] : await repository.changes(from, to).catch(() => []);
		return { from, to, files: changes.map((change) => change.path) };
	}

	/** The repository, opened at the first use; undefined (and said once) when checkpoints are off. */
	#open(): Promise<ShadowRepository | undefined> {
		this.#repository ??= this.#openRepository();
		return this.#repository;
	}

	async #openRepository(): Promise<ShadowRepository | undefined> {
		const { workspace, home } = this.#options;
		if (!this.#options.enabled) return undefined;
		if (workspace.cwd === home || workspace.cwd === "/" || /^[A-Za-z]:\\?$/.test(workspace.cwd)) {
			this.#tell(
				`Checkpoints are off: the working folder ${workspace.cwd} is the home or root folder, too big to record. Start Gantry in a project folder to rewind file changes.`,
			);
			return undefined;
		}
		try {
			const options = {
				workspace,
				home,
				sessionKey: this.#options.sessionKey,
				watch: this.#options.watch !== false && !this.#closed,
			};
			const limit = this.#options.fileSizeLimit;
			return await ShadowRepository.open(limit === undefined ? options : { ...options, fileSizeLimit: limit });
		} catch (error) {
			this.#tell(
				error instanceof GitMissingError
					? `Checkpoints are off: git was not found on ${workspace.label}. Install git (Debian: apt-get install git) to rewind file changes; the conversation can still be rewound.`
					: `Checkpoints are off: the checkpoint repository could not be opened (${errorText(error)}).`,
			);
			return undefined;
		}
	}

	async #snapshot(message: string): Promise<string | undefined> {
		const repository = await this.#open();
		if (repository === undefined) return undefined;
		try {
			const snapshot = await repository.snapshot(message);
			for (const file of snapshot.skipped) {
				this.#tell(
					`Checkpoints leave out ${file.path} (${(file.size / 1048576).toFixed(1)} MiB, over the ${(
						(this.#options.fileSizeLimit ?? 10 * 1048576) / 1048576
					).toFixed(0)} MiB limit): rewind cannot restore it.`,
				);
			}
			return snapshot.commit;
		} catch (error) {
			this.#tell(`A checkpoint failed, so this prompt's files cannot be rewound: ${errorText(error)}`);
			return undefined;
		}
	}

	#tell(message: string): void {
		if (this.#told.has(message)) return;
		this.#told.add(message);
		this.#options.notify(message);
	}
}

function firstLine(text: string): string {
	const line = text.split("\n")[0] ?? "";
	return line.length > 72 ? `${line.slice(0, 71)}…` : line;
}
