import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { QuickJSOptions } from "quickjs-wasi";

/** The compiled QuickJS module (`WebAssembly.Module`; the lib setting here has no WebAssembly types). */
export type QuickJsModule = QuickJSOptions["wasm"];

interface WebAssemblyCompiler {
	compile(bytes: Uint8Array): Promise<QuickJsModule>;
}

let compiled: Promise<QuickJsModule> | undefined;

/**
 * The QuickJS WebAssembly module, compiled once per process; every script instantiates a fresh VM
 * from it, so a script pays only the VM creation. A failed compile is not cached (the next call
 * retries). Rejects when the binary cannot be read or compiled.
 */
export function loadQuickJsModule(): Promise<QuickJsModule> {
	if (compiled === undefined) {
		const attempt = (async () => {
			const path = createRequire(import.meta.url).resolve("quickjs-wasi/quickjs.wasm");
			const { WebAssembly } = globalThis as unknown as { WebAssembly: WebAssemblyCompiler };
			return WebAssembly.compile(await readFile(path));
		})();
		compiled = attempt;
		attempt.catch(() => {
			if (compiled === attempt) compiled = undefined;
		});
	}
	return compiled;
}
