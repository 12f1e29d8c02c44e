import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { ABORTED_MESSAGE, onAbort } from "../../abort.js";
import {
	PREFILTER_WORKER_SOURCE,
	type PrefilterAnswer,
	type PrefilterProbe,
	type PrefilterResponse,
} from "./prefilter-worker.js";

/** Most worker threads: past a few, the engine's own thread (walking, searching candidates) is the limit. */
const MAX_WORKERS = 4;
/** Idle workers end after this long without a search, so an idle process holds no threads. */
const IDLE_MS = 15_000;

interface Pending {
	resolve(answers: PrefilterAnswer[] | undefined): void;
}

/** One worker thread and the batches it has been handed and not yet answered. */
class PrefilterWorker {
	readonly pending = new Map<number, Pending>();
	online = false;
	private readonly worker: Worker;

	constructor(private readonly onExit: (worker: PrefilterWorker) => void) {
		this.worker = new Worker(PREFILTER_WORKER_SOURCE, { eval: true });
		// Idle workers must not keep the process alive; a worker with batches in hand keeps it, as any I/O does.
		this.worker.unref();
		this.worker.on("online", () => {
			this.online = true;
		});
		this.worker.on("message", (response: PrefilterResponse) => {
			const pending = this.pending.get(response.id);
			if (pending === undefined) return;
			this.pending.delete(response.id);
			if (this.pending.size === 0) this.worker.unref();
			pending.resolve(response.answers);
		});
		// A worker that fails or ends answers nothing more: its batches are searched by the engine itself.
		this.worker.on("error", () => this.stop());
		this.worker.on("exit", () => this.stop());
	}

	post(id: number, paths: string[], probe: PrefilterProbe, bufferBytes: number, pending: Pending): void {
		this.pending.set(id, pending);
		this.worker.ref();
		this.worker.postMessage({ id, paths, probe, bufferBytes });
	}

	/** Ends the thread; every batch it holds resolves to undefined. */
	stop(): void {
		this.online = false;
		for (const pending of this.pending.values()) pending.resolve(undefined);
		this.pending.clear();
		void this.worker.terminate();
		this.onExit(this);
	}
}

/**
 * Worker threads that open, read and prefilter files for the built-in engine on other cores. Created
 * on first use, ended after `IDLE_MS` without a search. Holds no results between searches.
 */
class PrefilterPool {
	private readonly workers: PrefilterWorker[] = [];
	private nextId = 0;
	/** Batches the workers have answered since the process started (tests check the threads did the work). */
	answered = 0;
	private searches = 0;
	private idleTimer: NodeJS.Timeout | undefined;

	/** Worker threads that may run at once on this machine; 0 where there is only one core. */
	readonly size = availableParallelism() < 2 ? 0 : Math.min(MAX_WORKERS, availableParallelism());

	/** Marks a search as started (starting the threads); call `release` when it ends. */
	acquire(): void {
		this.searches++;
		if (this.idleTimer !== undefined) {
			clearTimeout(this.idleTimer);
			this.idleTimer = undefined;
		}
		try {
			while (this.workers.length < this.size) {
				this.workers.push(new PrefilterWorker((worker) => this.forget(worker)));
			}
		} catch {
			// No thread could start (a resource limit): the searches run on the calling thread, as without a pool.
		}
	}

	release(): void {
		this.searches--;
		if (this.searches > 0 || this.workers.length === 0) return;
		this.idleTimer = setTimeout(() => this.stopAll(), IDLE_MS);
		this.idleTimer.unref();
	}

	/**
	 * Hands `paths` to the least busy running worker. Resolves to one answer per path, or undefined when
	 * no worker is running yet (or the one given the batch failed): the caller then searches the batch
	 * itself. Rejects with `Operation aborted` when `signal` fires; the worker is then ended, since it may be
	 * deep in a slow regex.
	 */
	prefilter(
		paths: string[],
		probe: PrefilterProbe,
		bufferBytes: number,
		signal: AbortSignal | undefined,
	): Promise<PrefilterAnswer[] | undefined> {
		let chosen: PrefilterWorker | undefined;
		for (const worker of this.workers) {
			if (!worker.online) continue;
			if (chosen === undefined || worker.pending.size < chosen.pending.size) chosen = worker;
		}
		if (chosen === undefined) return Promise.resolve(undefined);
		const worker = chosen;
		return new Promise((resolve, reject) => {
			const stopWaiting = onAbort(signal, () => {
				// Rejected first: ending the worker resolves the batches it holds (this one included) to undefined.
				reject(new Error(ABORTED_MESSAGE));
				worker.stop();
			});
			worker.post(this.nextId++, paths, probe, bufferBytes, {
				resolve: (answers) => {
					stopWaiting();
					if (answers !== undefined) this.answered++;
					resolve(answers);
				},
			});
		});
	}

	/** Whether some worker has started and takes batches. */
	get ready(): boolean {
		for (const worker of this.workers) if (worker.online) return true;
		return false;
	}

	/** Worker threads running (for tests). */
	get running(): number {
		return this.workers.length;
	}

	private forget(worker: PrefilterWorker): void {
		const index = this.workers.indexOf(worker);
		if (index >= 0) this.workers.splice(index, 1);
	}

	private stopAll(): void {
		this.idleTimer = undefined;
		for (const worker of [...this.workers]) worker.stop();
	}
}

/** The process's one pool: threads are a machine-wide resource, not a per-tool one. */
export const prefilterPool = new PrefilterPool();
