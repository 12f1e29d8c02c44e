import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Language, type Node, Parser } from "web-tree-sitter";

export type { Node as ShellSyntaxNode } from "web-tree-sitter";

let loading: Promise<Parser> | undefined;

/**
 * The tree-sitter parser with the bash grammar, loaded once from the WebAssembly files that ship inside
 * the `web-tree-sitter` and `tree-sitter-bash` packages (nothing is downloaded).
 */
function loadParser(): Promise<Parser> {
	loading ??= (async () => {
		await Parser.init();
		const require = createRequire(import.meta.url);
		const grammar = await readFile(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
		const parser = new Parser();
		parser.setLanguage(await Language.load(grammar));
		return parser;
	})();
	loading.catch(() => {
		loading = undefined;
	});
	return loading;
}

/**
 * Parses `source` as bash and hands the syntax tree's root to `visit`; the tree is freed afterwards, so
 * `visit` must not keep nodes.
 */
export async function withBashSyntaxTree<T>(source: string, visit: (root: Node) => T): Promise<T> {
	const parser = await loadParser();
	const tree = parser.parse(source);
	if (!tree) throw new Error("The bash parser returned no tree");
	try {
		return visit(tree.rootNode);
	} finally {
		tree.delete();
	}
}
