package dev.jobqueue.store;

/**
 * What a pause applies to. The names are the literals stored in the pause table's {@code scope} column, so
 * this enum and the SQL never disagree.
 */
public enum PauseScope {

	/** Every job of one queue, whatever its kind. */
	queue,

	/** Every job of one kind, in whatever queue. */
	kind
}
