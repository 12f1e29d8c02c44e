/**
 * The codemode guest prelude: JavaScript evaluated inside each fresh VM before the script (a plain
 * script read as text by `prelude-source.ts`, not a module). It evaluates to a setup function that
 * receives the host functions as arguments (so they never sit on the global object), defines the
 * script's globals and returns `[run, deliver]`. Intrinsics are captured first, so a script that
 * rewrites `JSON`, `Promise.prototype.then` or `String` only confuses itself.
 *
 * Host protocol: a tool call creates a real promise in the VM, files its resolver under a call id and
 * calls `hostCall(toolIndex, callId, argsJson)`; when the host's call settles, the host calls
 * `deliver(callId, replyJson)` and drives the job queue. `hostSearch(query, limit)` and
 * `hostDescribe(name)` return a reply directly. A reply is JSON `{ ok: true, value } | { ok: false, message }`.
 * `hostEmit(text)` adds output; `hostDone(text | undefined)` and `hostFail(message, stack, context)`
 * end the script.
 */
(hostCall, hostEmit, hostSearch, hostDescribe, hostDone, hostFail, toolsJson, allToolsJson) => {
	const parse = JSON.parse;
	const stringify = JSON.stringify;
	const ErrorClass = Error;
	const toText = String;
	const freeze = Object.freeze;
	const defineProperty = Object.defineProperty;
	const PromiseClass = Promise;
	const then = Promise.prototype.then;
	const apply = Reflect.apply;
	const pending = Object.create(null);
	let nextCallId = 0;

	function deliver(callId, replyJson) {
		const resolve = pending[callId];
		if (resolve === undefined) return;
		delete pending[callId];
		resolve(replyJson);
	}

	function bigintAsText(_key, value) {
		return typeof value === "bigint" ? toText(value) : value;
	}
	function format(value) {
		if (typeof value === "string") return value;
		if (typeof value === "function") return `[Function: ${value.name || "anonymous"}]`;
		if (typeof value !== "object" || value === null) return toText(value);
		if (value instanceof ErrorClass) return value.stack ? `${toText(value)}\n${value.stack}` : toText(value);
		const json = stringify(value, bigintAsText, 2);
		return json === undefined ? toText(value) : json;
	}
	function unwrap(replyJson) {
		const reply = parse(replyJson);
		if (reply.ok) return reply.value;
		throw new ErrorClass(reply.message);
	}
	function emitLine(prefix, values) {
		let line = prefix;
		for (let index = 0; index < values.length; index++) line += (index > 0 ? " " : "") + format(values[index]);
		hostEmit(line);
	}

	const tools = {};
	const entries = parse(toolsJson);
	for (let index = 0; index < entries.length; index++) {
		const name = entries[index].name;
		const id = entries[index].id;
		const invoke = async (args) => {
			const argsJson = stringify(args === undefined ? {} : args, bigintAsText);
			const callId = nextCallId++;
			const replied = new PromiseClass((resolve) => {
				pending[callId] = resolve;
			});
			hostCall(index, callId, argsJson);
			const reply = parse(await replied);
			if (reply.ok) return reply.value;
			const error = new ErrorClass(reply.message);
			error.tool = name;
			throw error;
		};
		defineProperty(invoke, "name", { value: id });
		tools[name] = invoke;
		if (!(id in tools)) tools[id] = invoke;
	}
	const allTools = parse(allToolsJson);
	for (let index = 0; index < allTools.length; index++) freeze(allTools[index]);

	globalThis.tools = freeze(tools);
	globalThis.ALL_TOOLS = freeze(allTools);
	globalThis.text = function text(value) {
		hostEmit(format(value));
	};
	globalThis.console = freeze({
		log(...values) {
			emitLine("", values);
		},
		info(...values) {
			emitLine("", values);
		},
		debug(...values) {
			emitLine("", values);
		},
		warn(...values) {
			emitLine("[warn] ", values);
		},
		error(...values) {
			emitLine("[error] ", values);
		},
	});
	globalThis.searchTools = function searchTools(query, options) {
		const limit = options === undefined || options === null ? undefined : options.limit;
		return unwrap(hostSearch(typeof query === "string" ? query : toText(query), limit));
	};
	globalThis.describeTool = function describeTool(name) {
		return unwrap(hostDescribe(typeof name === "string" ? name : toText(name)));
	};

	function fail(error, context) {
		let message = "Uncaught exception that cannot be turned into text";
		let stack = "";
		try {
			if (error instanceof ErrorClass) {
				message = toText(error);
				stack = typeof error.stack === "string" ? error.stack : "";
			} else {
				message = `Uncaught ${format(error)}`;
			}
		} catch {}
		hostFail(toText(message), toText(stack), context);
	}
	function finish(value) {
		let output;
		try {
			output = value === undefined ? undefined : format(value);
		} catch (error) {
			fail(error, "while turning the returned value into text");
			return;
		}
		hostDone(output);
	}
	function run(main) {
		let started;
		try {
			started = main();
		} catch (error) {
			fail(error, "");
			return;
		}
		if (!(started instanceof PromiseClass)) {
			finish(started);
			return;
		}
		apply(then, started, [
			finish,
			(error) => {
				fail(error, "");
			},
		]);
	}
	return [run, deliver];
};
