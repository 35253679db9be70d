package dev.jobqueue.store;

import java.time.Instant;
import java.util.Map;

/** The pauses of queues and kinds, shared by every node: the claims read them in the statement that picks jobs. */
public interface PauseStore {

	/**
	 * Pauses {@code name} for every node: from the next claim on, no claim takes a job of a paused queue, nor
	 * of a paused kind in any queue; running jobs are left alone. Returns whether it was not paused before.
	 */
	boolean pause(PauseScope scope, String name);

	/**
	 * Lifts a pause; returns whether {@code name} was paused. A resumed queue wakes the pollers of other nodes
	 * where the database can tell them (PostgreSQL's notifications).
	 */
	boolean resume(PauseScope scope, String name);

	/**
	 * Pauses {@code name} unless it was ever paused (and perhaps resumed since): the first start of a setting
	 * that a queue begins paused, which must never undo an operator's resume. Returns whether it paused.
	 */
	boolean pauseUnlessRecorded(PauseScope scope, String name);

	/** The paused names of {@code scope}, in name order, each with when it was paused. */
	Map<String, Instant> paused(PauseScope scope);
}
