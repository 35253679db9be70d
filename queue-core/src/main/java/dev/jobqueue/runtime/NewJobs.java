package dev.jobqueue.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.jobqueue.DependencyFailure;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.JobQueue.NewJobRequest;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Unique;
import dev.jobqueue.store.NewJob;
import tools.jackson.databind.json.JsonMapper;

/**
 * What a caller asked to enqueue, as the {@link NewJob} the store writes: the kind checked against this node's
 * handlers, the options resolved against the kind's handler and the defaults, the payload written and checked, the
 * stored unique key and the concurrency key's slot decided. Bad input is refused here, before any SQL.
 */
final class NewJobs {

	private final HandlerRegistry handlers;

	private final PayloadWriter payloads;

	private final UniqueKeys uniqueKeys;

	private final RetryPolicy defaultRetryPolicy;

	private final KindLimits kindLimits;

	NewJobs(HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings, KindLimits kindLimits) {
		this.handlers = handlers;
		this.payloads = new PayloadWriter(json, settings);
		this.uniqueKeys = new UniqueKeys(json);
		this.defaultRetryPolicy = settings.retryPolicy();
		this.kindLimits = kindLimits;
	}

	NewJob of(String kind, Object payload, EnqueueOptions options) {
		return of(kind, payload, options, this::acceptedHandler);
	}

	/**
	 * Looks each kind up once per call rather than once per job; refuses jobs that run after others, which
	 * {@code method} does not take.
	 */
	List<NewJob> ofAll(List<NewJobRequest> requests, String method) {
		Map<String, Optional<JobHandlerDefinition>> handlerByKind = new HashMap<>();
		Function<String, Optional<JobHandlerDefinition>> lookup = kind -> handlerByKind.computeIfAbsent(kind,
				this::acceptedHandler);
		List<NewJob> jobs = new ArrayList<>(requests.size());
		for (NewJobRequest request : requests) {
			NewJob job = of(request.kind(), request.payload(), request.options(), lookup);
			require(!job.dependencies().waits(), () -> method + " takes no jobs that run after others (after): "
					+ "enqueue them with enqueue, or a graph of them with workflow()");
			jobs.add(job);
		}
		return jobs;
	}

	private NewJob of(String kind, Object payload, EnqueueOptions options,
			Function<String, Optional<JobHandlerDefinition>> handlerLookup) {
		require(kind != null && !kind.isBlank(), () -> "kind must not be blank");
		require(kind.indexOf('\u0000') < 0, () -> "kind must not hold the character U+0000");
		require(options != null, () -> "options must not be null");
		Optional<JobHandlerDefinition> handler = handlerLookup.apply(kind);
		String queue = options.queue() != null ? options.queue()
				: handler.map(JobHandlerDefinition::queue).orElse(RuntimeSettings.DEFAULT_QUEUE);
		int maxAttempts = options.maxAttempts() != null ? options.maxAttempts()
				: handler.map(JobHandlerDefinition::retryPolicy).orElse(defaultRetryPolicy).maxAttempts();
		int payloadVersion = options.payloadVersion() != null ? options.payloadVersion()
				: handler.map(JobHandlerDefinition::version).orElse(JobHandlerDefinition.FIRST_VERSION);
		Duration delay = options.runAt() == null ? (options.delay() == null ? Duration.ZERO : options.delay()) : null;
		String json = payloads.write(kind, payload, handler);
		Unique unique = options.unique();
		String uniqueKey = unique == null ? null
				: uniqueKeys.storedKey(unique, json, options.runAt() != null ? options.runAt() : Instant.now().plus(delay));
		return new NewJob(queue, kind, json, payloadVersion, options.priority(), options.runAt(), delay, maxAttempts,
				uniqueKey, kindLimits.keySlot(kind, options.concurrencyKey(), handler))
			.withDependencies(new NewJob.Dependencies(options.after(),
					options.dependencyFailure() == DependencyFailure.CANCEL, false))
			.withUniqueStates(unique == null ? List.of() : unique.finishedStates());
	}

	/** The handler of a kind that may be enqueued here, if this node has one; refuses other kinds. */
	private Optional<JobHandlerDefinition> acceptedHandler(String kind) {
		require(handlers.accepts(kind), () -> "kind '" + kind
				+ "' is unknown: no handler here serves it (kinds: " + String.join(", ", handlers.acceptedKinds())
				+ "); declare kinds that other applications handle as external kinds");
		return handlers.handlerFor(kind);
	}

	private static void require(boolean condition, Supplier<String> problem) {
		if (!condition) {
			throw new IllegalArgumentException(problem.get());
		}
	}
}
