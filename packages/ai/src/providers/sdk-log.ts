import { failureText } from "./error-text.js";

/** How much of a bad chunk a failure quotes. */
const QUOTED_CHARACTERS = 200;

type LogFunction = (message: string, ...rest: unknown[]) => void;

/** The logger shape both official clients take (`logger` option, used at `logLevel: "error"`). */
export interface SdkLogger {
	error: LogFunction;
	warn: LogFunction;
	info: LogFunction;
	debug: LogFunction;
}

function ignore(): void {}

/**
 * What an official client logs during one request, kept instead of printed. The clients print a chunk
 * of the stream they cannot parse as JSON ("Could not parse message into JSON:", the data) and then
 * throw the parser's bare message; with this logger the data is kept, so the failure can quote it.
 */
export class SdkLogCapture {
	/** The data of the last stream chunk the client could not parse. */
	badChunk: string | undefined;

	readonly logger: SdkLogger = {
		error: (message, ...rest) => {
			if (typeof message === "string" && message.startsWith("Could not parse message into JSON"))
				this.badChunk = String(rest[0] ?? "");
		},
		warn: ignore,
		info: ignore,
		debug: ignore,
	};

	/** Forgets what an earlier attempt logged. */
	reset(): void {
		this.badChunk = undefined;
	}

	/**
	 * The failure's text: for a chunk that was not JSON, the parser's message and the start of the data
	 * (up to 200 characters), so the person can see what the server sent; otherwise `failureText`.
	 */
	describe(error: unknown): string {
		if (!(error instanceof SyntaxError) || this.badChunk === undefined) return failureText(error);
		const data = this.badChunk;
		const quoted = data.length > QUOTED_CHARACTERS ? `${data.slice(0, QUOTED_CHARACTERS)}…` : data;
		return `The server sent a stream chunk that is not valid JSON (${error.message}): ${JSON.stringify(quoted)}`;
	}
}
