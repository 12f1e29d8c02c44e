/**
 * How many items at the start of `items` pass `passes`, by binary search. The items that pass must all
 * come before those that fail (a sorted list read with a threshold), as the offset maps here keep them.
 */
export function countLeading<Item>(items: readonly Item[], passes: (item: Item) => boolean): number {
	let low = 0;
	let high = items.length;
	while (low < high) {
		const middle = (low + high) >>> 1;
		const item = items[middle];
		// `middle` stays below `high`, which starts at the length: the item is always there.
		if (item === undefined) throw new Error(`Binary search read index ${middle} of a list of ${items.length}`);
		if (passes(item)) low = middle + 1;
		else high = middle;
	}
	return low;
}
