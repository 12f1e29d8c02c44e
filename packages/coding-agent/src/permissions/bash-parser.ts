import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Language, type Node, Parser } from "web-tree-sitter";

export type { Node as ShellSyntaxNode } from "web-tree-sitter";

/** Parses bash source and hands the tree's root to `visit`; the tree is freed afterwards. Synchronous. */
export type BashSyntaxVisitor = <T>(source: string, visit: (root: Node) => T) => T;

let loading: Promise<BashSyntaxVisitor> | undefined;

/**
 * The tree-sitter parser with the bash grammar, loaded once from the WebAssembly files that ship inside
 * the `web-tree-sitter` and `tree-sitter-bash` packages (nothing is downloaded). Once loaded, parsing is
 * synchronous, so a parse can parse the code it finds inside (`bash -c '…'`) without awaiting.
 */
export function loadBashSyntax(): Promise<BashSyntaxVisitor> {
	loading ??= (async () => {
		await Parser.init();
		const require = createRequire(import.meta.url);
		const grammar = await readFile(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
		const parser = new Parser();
		parser.setLanguage(await Language.load(grammar));
		const visitor: BashSyntaxVisitor = (source, visit) => {
			const tree = parser.parse(source);
			if (!tree) throw new Error("The bash parser returned no tree");
			try {
				return visit(tree.rootNode);
			} finally {
				tree.delete();
			}
		};
		return visitor;
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
	const parse = await loadBashSyntax();
	return parse(source, visit);
}
