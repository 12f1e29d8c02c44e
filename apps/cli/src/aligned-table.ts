/**
 * A table as lines: every cell but a row's last is padded to the widest cell of its column (measured by
 * `width`, the visible width when cells hold colour codes), and cells are two spaces apart.
 */
export function alignedTable(
	header: readonly string[],
	rows: readonly (readonly string[])[],
	width: (text: string) => number,
): { header: string; rows: string[] } {
	const widths: number[] = [];
	for (const cells of [header, ...rows]) {
		for (const [column, cell] of cells.entries()) widths[column] = Math.max(widths[column] ?? 0, width(cell));
	}
	// Every column's width was measured over this very cell too, so it is there and never smaller than the cell.
	const line = (cells: readonly string[]) =>
		cells
			.map((cell, column) =>
				column === cells.length - 1 ? cell : cell + " ".repeat((widths[column] ?? 0) - width(cell)),
			)
			.join("  ");
	return { header: line(header), rows: rows.map(line) };
}
