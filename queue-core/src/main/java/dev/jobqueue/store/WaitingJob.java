package dev.jobqueue.store;

import java.util.List;
import java.util.Optional;

import dev.jobqueue.JobState;

/**
 * A job waiting for the jobs it depends on, as the promotion reads it: where it goes once promoted, and the states
 * its dependencies are in.
 *
 * @param concurrencyKey its key, whose promotion follows its own, or null
 */
public record WaitingJob(long id, String queue, String concurrencyKey, List<Dependency> dependencies) {

	/** The event its dependencies' states make, if any: {@link Transition#ofDependencies}. */
	public Optional<Transition> event() {
		return Transition.ofDependencies(dependencies);
	}

	/** Why a cancel by {@link Transition#CANCEL_WAITING} cancelled it: the first required dependency that failed. */
	public String cancelReason() {
		return dependencies.stream()
			.filter(Dependency::failedRequired)
			.findFirst()
			.map(d -> "job %d, which it required, ended %s".formatted(d.id(), d.state()))
			.orElseThrow();
	}

	/**
	 * One job it waits for.
	 *
	 * @param state the dependency's state, or null when it was deleted (it had finished)
	 * @param required whether it must succeed for the waiting job to run
	 */
	public record Dependency(long id, JobState state, boolean required) {

		boolean finished() {
			return state == null || state.isFinished();
		}

		boolean failedRequired() {
			return required && state != null && state != JobState.succeeded && state.isFinished();
		}
	}
}
