/** `items[index]` for an index the test computed itself; a missing item is a bug in the test, so it throws. */
export function itemAt<Item>(items: ArrayLike<Item>, index: number): Item {
	const item = items[index];
	if (item === undefined) throw new Error(`The test read item ${index} of a list of ${items.length}`);
	return item;
}
