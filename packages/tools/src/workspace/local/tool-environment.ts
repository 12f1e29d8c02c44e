/**
 * Words that mark a variable as a secret when they appear anywhere in its name, compared without regard to
 * case: Codex's default `shell_environment_policy` excludes (`*KEY*`, `*SECRET*`, `*TOKEN*`) plus
 * `PASSWORD` and `CREDENTIAL`.
 */
export const SECRET_NAME_WORDS: readonly string[] = ["KEY", "SECRET", "TOKEN", "PASSWORD", "CREDENTIAL"];

/** Secret values shorter than this are not looked for (a placeholder key such as `none` is no secret). */
const MIN_SECRET_VALUE_LENGTH = 8;

/** Options of `toolProcessEnvironment`. */
export interface ToolEnvironmentOptions {
	/** The environment tool processes start from. Default `process.env` (read at each call). */
	base?: Readonly<Record<string, string | undefined>>;
	/**
	 * Values that must never reach a tool process, whatever the variable holding them is called: the API
	 * keys the session itself uses (`--api-key`, `apiKey`, a key read from any variable). A variable whose
	 * value contains one is left out. Values under 8 characters are ignored. Default none.
	 */
	secrets?: readonly (string | undefined)[];
	/**
	 * Variables set explicitly (a settings file's `env`, the bash tool's `env` option): kept even when their
	 * names look secret, and set over the base. Default none.
	 */
	add?: Readonly<Record<string, string>>;
}

/** Whether a variable's name marks it as a secret (`OPENAI_API_KEY`, `GITHUB_TOKEN`, `db_password`, …). */
export function isSecretVariableName(name: string): boolean {
	const upper = name.toUpperCase();
	return SECRET_NAME_WORDS.some((word) => upper.includes(word));
}

/**
 * The environment a tool process (bash, powershell, a hook command, a search engine) gets: the base
 * environment minus every variable whose name contains `KEY`, `SECRET`, `TOKEN`, `PASSWORD` or
 * `CREDENTIAL` (any case) and every variable holding one of `secrets`, then `add` on top. `PATH`, `HOME`,
 * `LANG` and the rest stay. Never throws.
 *
 * @example
 * spawn("bash", ["-c", hook], { env: toolProcessEnvironment({ secrets: [apiKey], add: settings.env }) });
 */
export function toolProcessEnvironment(options: ToolEnvironmentOptions = {}): Record<string, string> {
	const base = options.base ?? process.env;
	const secrets = (options.secrets ?? []).filter(
		(secret): secret is string => typeof secret === "string" && secret.length >= MIN_SECRET_VALUE_LENGTH,
	);
	const environment: Record<string, string> = {};
	for (const [name, value] of Object.entries(base)) {
		if (value === undefined || isSecretVariableName(name)) continue;
		if (secrets.some((secret) => value.includes(secret))) continue;
		setOwn(environment, name, value);
	}
	for (const [name, value] of Object.entries(options.add ?? {})) {
		if (typeof value === "string") setOwn(environment, name, value);
	}
	return environment;
}

/** Sets a variable as an own property, so a name like `__proto__` from a settings file is only a name. */
function setOwn(environment: Record<string, string>, name: string, value: string): void {
	Object.defineProperty(environment, name, { value, enumerable: true, writable: true, configurable: true });
}
