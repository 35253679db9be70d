package dev.jobqueue.runtime;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import org.springframework.transaction.support.TransactionOperations;

import dev.jobqueue.Job;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobState;
import dev.jobqueue.JobTracing;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.store.JobStore;
import tools.jackson.databind.json.JsonMapper;

/**
 * Runs due jobs on the calling thread, one at a time, until none is due: for tests (the queue-test module),
 * where no {@link JobRuntime} runs. It goes the runtime's own way, a {@link QueuePoller} per queue claiming
 * through the store and a {@link JobRunner} writing the outcome, retries and dead jobs included; only the
 * threads are missing. Its {@link CompletionBatcher} is never started, so each completion is written by the
 * thread that hands it over, before {@link #drain} moves on. No heartbeat, watchdog or reaper runs beside
 * it: a handler's timeout is not enforced, and a lease cannot run out under a handler that takes long.
 */
public final class JobDrainer {

	/**
	 * One execution a drain ran, as the runtime recorded it.
	 *
	 * @param error the error stored with the job when the execution failed (message and stack trace), else null
	 */
	public record Ran(long id, String kind, String queue, int attempt, Outcome outcome, String error) {
	}

	private final JobStore store;

	private final HandlerRegistry handlers;

	private final RuntimeSettings settings;

	private final String owner = "jobqueue-drain/" + UUID.randomUUID().toString().substring(0, 8);

	private final Recorder recorder;

	private final JobRunner runner;

	private final RoleLiveness liveness = new RoleLiveness(Clock.systemUTC(), () -> {
	});

	private final Map<String, QueuePoller> pollers = new HashMap<>();

	public JobDrainer(JobStore store, HandlerRegistry handlers, JsonMapper json, RuntimeSettings settings,
			JobListener listener, TransactionOperations transactions) {
		this.store = store;
		this.handlers = handlers;
		this.settings = settings;
		this.recorder = new Recorder(listener);
		OutcomeWriter outcomes = new OutcomeWriter(settings.lease());
		InFlightJobs inFlight = new InFlightJobs(Watchdog.fence(settings.lease(), settings.heartbeatInterval()),
				new JobSteps(store.steps(), json, new ResultJson(json, settings.maxResultLength())),
				new JobNotes(store.steps(), json, settings.heartbeatInterval(), Clock.systemUTC()),
				new JobDependencies(store, json));
		// No poller sleeps here, so a retry due soon has no one to wake: the caller drains again.
		Failures failures = new Failures(store, settings, outcomes, queue -> {
		});
		// Slots of concurrency keys, a rate's starts and waiting jobs are handed on by the sweeps before each round,
		// in the caller's transaction.
		this.runner = new JobRunner(store.outcomes(), handlers, json, settings, recorder, JobTracing.NONE, transactions, inFlight,
				failures, new CompletionBatcher(store.outcomes(), outcomes, liveness),
				new StartConfirmations(store.claims(), owner), key -> {
				}, job -> {
				});
	}

	/**
	 * Runs every due job of every queue, those its handlers enqueue or retry at once included, until none
	 * is due or {@code limit} ran; returns them in the order they ran.
	 */
	public synchronized List<Ran> drain(int limit) {
		if (limit < 1) {
			throw new IllegalArgumentException("limit must be at least 1, was " + limit);
		}
		List<Ran> ran = new ArrayList<>();
		boolean progress = true;
		while (progress && ran.size() < limit) {
			progress = false;
			DependencyPromoter.sweepAll(store.dependencies(), store.batches());
			KeyPromoter.sweepAll(store.promotions());
			for (String queue : queuesWithReadyJobs()) {
				while (ran.size() < limit && runOne(queue, ran)) {
					progress = true;
				}
			}
		}
		return ran;
	}

	/** Claims and runs one due job of {@code queue}; false when none was due. */
	private boolean runOne(String queue, List<Ran> ran) {
		recorder.last = null;
		if (poller(queue).runOnce() == 0) {
			return false;
		}
		Ran finished = recorder.last;
		if (finished == null) {
			throw new IllegalStateException("a job of queue '" + queue + "' ran, but its outcome could not be "
					+ "written: the log says why");
		}
		ran.add(finished.outcome() == Outcome.SUCCEEDED ? finished : withError(finished));
		return true;
	}

	private Ran withError(Ran ran) {
		String error = store.reads().find(ran.id()).map(Job::lastError).orElse(null);
		return new Ran(ran.id(), ran.kind(), ran.queue(), ran.attempt(), ran.outcome(), error);
	}

	private List<String> queuesWithReadyJobs() {
		return store.telemetry().countUnfinishedByQueue().entrySet().stream()
			.filter(counts -> counts.getValue().getOrDefault(JobState.ready, 0L) > 0)
			.map(Map.Entry::getKey)
			.sorted()
			.toList();
	}

	/** One job at a time, run by the calling thread inside {@link QueuePoller#runOnce()}. */
	private QueuePoller poller(String queue) {
		return pollers.computeIfAbsent(queue, name -> new QueuePoller(name, 1, 1, handlers, owner, settings.lease(),
				store.claims(), runner, Runnable::run, liveness));
	}

	/** Notes how the last execution ended, for {@link #runOne}, and tells the application's listener. */
	private static final class Recorder implements JobListener {

		private final JobListener listener;

		private Ran last;

		Recorder(JobListener listener) {
			this.listener = listener;
		}

		@Override
		public void onStarted(JobContext job, Duration wait) {
			listener.onStarted(job, wait);
		}

		@Override
		public void onFinished(JobContext job, Outcome outcome, Duration execution) {
			last = new Ran(job.jobId(), job.kind(), job.queue(), job.attempt(), outcome, null);
			listener.onFinished(job, outcome, execution);
		}
	}
}
