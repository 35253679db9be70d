package dev.jobqueue;

/** The cursor of a {@code JobContext} of one's own, such as a test double: kept in memory, for one attempt. */
final class MemoryCursor<T> implements JobCursor<T> {

	private T position;

	MemoryCursor(T start) {
		this.position = start;
	}

	@Override
	public T position() {
		return position;
	}

	@Override
	public void save(T position) {
		this.position = position;
	}
}
