/**
 * A command's own key for sandbox-runtime's proxy. The profile carries the workspace's key in every proxy
 * variable's user name (`srt.` and the key in base64, raw or percent-encoded in a URL), and the proxy files
 * what it refuses under the key it was sent. With one key for the workspace, two commands running at once
 * (parallel tool calls) were each told of the other's refused connections; each command gets a key of its own
 * instead, written over the workspace's in its invocation.
 */
export interface AttributedInvocation {
	args: string[];
	/** The key the proxy files this command's refusals under: its own, or the workspace's when none could be set. */
	key: string;
}

/** Commands given a key so far: a command's key is its workspace's (random, 128 bits) and this number. */
let commandsKeyed = 0;

/** The key as sandbox-runtime puts it in a proxy user name: the first 100 characters, in base64. */
function encodedKey(key: string): string {
	return Buffer.from(key.slice(0, 100)).toString("base64");
}

/**
 * `args` with the workspace's key replaced by a new one of the command's own. When the invocation does not
 * carry the workspace's key where it is expected (another sandbox-runtime version), it is left as it is and
 * the workspace's key is returned, so that the refusals are still found.
 */
export function attributeToCommand(args: readonly string[], workspaceKey: string): AttributedInvocation {
	commandsKeyed++;
	const key = `${workspaceKey}.${commandsKeyed}`;
	const from = encodedKey(workspaceKey);
	const to = encodedKey(key);
	const replacements: [string, string][] = [
		[`srt.${from}`, `srt.${to}`],
		[`srt.${encodeURIComponent(from)}`, `srt.${encodeURIComponent(to)}`],
	];
	let changed = false;
	const attributed = args.map((arg) => {
		if (!arg.includes("srt.")) return arg;
		const replaced = replacements.reduce((text, [old, own]) => text.replaceAll(old, own), arg);
		if (replaced !== arg) changed = true;
		return replaced;
	});
	return changed ? { args: attributed, key } : { args: [...args], key: workspaceKey };
}
