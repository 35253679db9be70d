package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import dev.jobqueue.Job;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.JobExplanation.Reason;
import dev.jobqueue.JobState;
import dev.jobqueue.Node;
import dev.jobqueue.store.BatchStore;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.PauseScope;

/**
 * {@code JobQueue.explain}: the first reason that applies, checked in the order of {@link Reason}'s constants. A
 * finished or running job says so. A waiting one is checked first for what holds it until someone acts (a pause,
 * no node to run it), then for what its concurrency key waits on ({@link KeyExplainer}), then for time (backoff,
 * a later due time), and last for the threads of the nodes that serve it. Every time is the database's.
 */
final class JobExplainer {

	/** How far the jobs ahead are counted: enough to tell a long wait, bounded for a deep backlog. */
	static final int MAX_AHEAD = 10_000;

	private final JobStore store;

	private final KeyExplainer keys;

	JobExplainer(JobStore store) {
		this.store = store;
		this.keys = new KeyExplainer(store.explain());
	}

	JobExplanation explain(long id) {
		Optional<Job> found = store.reads().find(id);
		if (found.isEmpty()) {
			return new JobExplanation(id, Reason.NOT_FOUND,
					"No job %d: it was never enqueued, or it finished and was pruned.".formatted(id));
		}
		Job job = found.get();
		return switch (job.state()) {
			case succeeded -> explained(job, Reason.SUCCEEDED, "succeeded at %s.", ExplainText.time(job.finishedAt()));
			case cancelled -> cancelled(job);
			case dead -> dead(job);
			case running -> explained(job, Reason.RUNNING,
					"is running (attempt %d of %d) on node %s; its lease runs until %s.", job.attempt(),
					job.maxAttempts(), job.leaseOwner(), ExplainText.time(job.leaseExpiresAt()));
			case waiting -> callback(job).orElseGet(() -> dependencies(job));
			case ready, blocked -> waiting(job);
		};
	}

	/**
	 * A job cancelled while it ran whose handler has not been seen to exit says so: its worker's lease is still on it,
	 * and with a concurrency key it holds its slot until then, so that the key's next job waits.
	 */
	private static JobExplanation cancelled(Job job) {
		String at = ExplainText.time(job.finishedAt());
		if (job.leaseExpiresAt() == null) {
			return explained(job, Reason.CANCELLED, "was cancelled at %s.", at);
		}
		String slot = job.concurrencyKey() == null ? ""
				: "; it holds its slot of concurrency key '%s' until then".formatted(job.concurrencyKey());
		return explained(job, Reason.CANCELLED, "was cancelled at %s while it ran; its handler may still run on node "
				+ "%s, until it exits or its lease runs out at %s%s.", at, job.leaseOwner(),
				ExplainText.time(job.leaseExpiresAt()), slot);
	}

	/** A dead job that holds its key's slot says so: retention keeps it, and the key's next jobs wait for it. */
	private JobExplanation dead(Job job) {
		String attempts = ExplainText.count(job.attempt(), "attempt");
		String error = ExplainText.error(job.lastError());
		if (job.concurrencyKey() != null && store.explain().holdsSlot(job.id())) {
			return explained(job, Reason.DEAD, "is dead after %s; it holds its slot of concurrency key '%s' and is "
					+ "kept past retention until retried or cancelled; the last failed with: %s", attempts,
					job.concurrencyKey(), error);
		}
		return explained(job, Reason.DEAD, "is dead after %s; the last failed with: %s", attempts, error);
	}

	/** A batch's callback says how far its batch has come, counted now. */
	private Optional<JobExplanation> callback(Job job) {
		return store.batches().rowsOf(List.of(job.id())).stream()
			.filter(row -> row.role() != BatchStore.Role.member)
			.findFirst()
			.flatMap(row -> store.batches().counts(row.batchId()).map(counts -> {
				String unfinished = "%d of its %s have not finished".formatted(counts.unfinished(),
						ExplainText.count(counts.total(), "job"));
				return row.role() == BatchStore.Role.on_finish
						? explained(job, Reason.WAITING_FOR_BATCH, "runs once batch %d has finished: %s.",
								counts.batchId(), unfinished)
						: explained(job, Reason.WAITING_FOR_BATCH, "runs if a job of batch %d ends dead, and is "
								+ "cancelled if none has once the batch finishes: %s.", counts.batchId(), unfinished);
			}));
	}

	/**
	 * A job that waits for others names the first of them that has not finished, and where that one stands; when all
	 * have, the promotion that follows their ends is due.
	 */
	private JobExplanation dependencies(Job job) {
		List<Long> after = store.dependencies().dependenciesOf(job.id());
		for (long id : after) {
			Optional<Job> dependency = store.reads().find(id);
			if (dependency.isPresent() && !dependency.get().state().isFinished()) {
				Job first = dependency.get();
				String where = first.state() == JobState.running ? "running on node " + first.leaseOwner()
						: first.state().name();
				return explained(job, Reason.WAITING_FOR_DEPENDENCIES, "waits for job %d (%s), of the %s it runs after.",
						first.id(), where, ExplainText.count(after.size(), "job"));
			}
		}
		return explained(job, Reason.WAITING_FOR_DEPENDENCIES, "waits for its promotion: the %s it runs after have "
				+ "finished, and a node settles it within a poll interval.", ExplainText.count(after.size(), "job"));
	}

	private JobExplanation waiting(Job job) {
		List<Node> nodes = store.nodes().liveNodes();
		Instant now = store.explain().now();
		return paused(job)
			.or(() -> unserved(job, nodes))
			.or(() -> blocked(job, now))
			.or(() -> later(job, now))
			.orElseGet(() -> due(job, nodes));
	}

	private Optional<JobExplanation> paused(Job job) {
		Instant queue = store.pauses().paused(PauseScope.queue).get(job.queue());
		if (queue != null) {
			return Optional.of(explained(job, Reason.QUEUE_PAUSED, "waits: queue '%s' is paused, since %s.",
					job.queue(), ExplainText.time(queue)));
		}
		Instant kind = store.pauses().paused(PauseScope.kind).get(job.kind());
		return Optional.ofNullable(kind == null ? null : explained(job, Reason.KIND_PAUSED,
				"waits: kind '%s' is paused, since %s.", job.kind(), ExplainText.time(kind)));
	}

	private static Optional<JobExplanation> unserved(Job job, List<Node> nodes) {
		if (nodes.stream().noneMatch(node -> node.queues().containsKey(job.queue()))) {
			return Optional.of(explained(job, Reason.NO_NODE_FOR_QUEUE, "waits: no live node works queue '%s'.",
					job.queue()));
		}
		if (nodes.stream().noneMatch(node -> node.serves(job.queue(), job.kind()))) {
			return Optional.of(explained(job, Reason.NO_NODE_FOR_KIND,
					"waits: no live node that works queue '%s' has a handler for kind '%s'.", job.queue(), job.kind()));
		}
		return Optional.empty();
	}

	private Optional<JobExplanation> blocked(Job job, Instant now) {
		return job.state() == JobState.blocked ? Optional.of(keys.explain(job, now)) : Optional.empty();
	}

	/** Due later: after a failed attempt, in backoff; else delayed or snoozed. */
	private static Optional<JobExplanation> later(Job job, Instant now) {
		if (!job.runAt().isAfter(now)) {
			return Optional.empty();
		}
		String due = "due in %s, at %s.".formatted(ExplainText.duration(Duration.between(now, job.runAt())),
				ExplainText.time(job.runAt()));
		if (job.attempt() > 0 && job.lastError() != null) {
			return Optional.of(explained(job, Reason.IN_BACKOFF, "is in backoff after attempt %d failed with: %s; %s",
					job.attempt(), ExplainText.error(job.lastError()), due));
		}
		return Optional.of(explained(job, Reason.DUE_LATER, "is %s", due));
	}

	/** Due now: busy when every node that serves it runs as many jobs of its queue as it has threads for it. */
	private JobExplanation due(Job job, List<Node> nodes) {
		List<Node> serving = nodes.stream().filter(node -> node.serves(job.queue(), job.kind())).toList();
		Map<String, Integer> running = store.explain().runningByOwner(job.queue());
		boolean busy = serving.stream()
			.allMatch(node -> running.getOrDefault(node.name(), 0) >= node.queues().get(job.queue()));
		if (!busy) {
			return explained(job, Reason.READY,
					"is due and a thread is free: a node should start it within a poll interval.");
		}
		int threads = serving.stream().mapToInt(node -> node.queues().get(job.queue())).sum();
		return explained(job, Reason.NODES_BUSY,
				"is due, but every thread that would run it is busy (%s of queue '%s', on %s); %s",
				ExplainText.count(threads, "thread"), job.queue(), ExplainText.count(serving.size(), "live node"),
				ahead(store.explain().readyAhead(job.id(), MAX_AHEAD)));
	}

	private static String ahead(long ahead) {
		if (ahead == 0) {
			return "it is next in line.";
		}
		String count = ahead >= MAX_AHEAD ? MAX_AHEAD + " or more" : String.valueOf(ahead);
		return count + (ahead == 1 ? " older or higher-priority job is" : " older or higher-priority jobs are")
				+ " ahead of it.";
	}

	private static JobExplanation explained(Job job, Reason reason, String predicate, Object... args) {
		return new JobExplanation(job.id(), reason, "Job " + job.id() + " " + predicate.formatted(args));
	}
}
