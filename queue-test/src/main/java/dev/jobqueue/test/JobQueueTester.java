package dev.jobqueue.test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import dev.jobqueue.Job;
import dev.jobqueue.runtime.InlineRunner;
import dev.jobqueue.runtime.JobDrainer;
import dev.jobqueue.store.TestHooks;

/**
 * The queue as a test sees it, a bean of every test context that has the queue and this module:
 *
 * <pre>{@code
 * @SpringBootTest(properties = "jobqueue.worker.enabled=false")
 * class RegistrationTests {
 *     @Autowired JobQueueTester jobs;
 *
 *     @Test
 *     void aRegistrationSendsTheWelcomeEmail() {
 *         registrations.register(new NewUser("ada@example.com", "Ada"));
 *         jobs.assertEnqueued(WelcomeEmail.class, mail -> mail.to().equals("ada@example.com"));
 *         assertThat(jobs.drain()).allMatch(DrainedJob::succeeded);
 *     }
 * }
 * }</pre>
 *
 * "Enqueued in this test" means since the test method began (its {@code @BeforeEach} methods included), or
 * since {@link #resetEnqueued()}; jobs are read through the queue's store, so a {@code @Transactional}
 * test sees its own uncommitted jobs. {@link #drain()} runs jobs through the queue's own claim, runner and
 * outcome writes on the calling thread, with the background workers off ({@code jobqueue.worker.enabled=false}).
 */
public final class JobQueueTester {

	/** How many executions one {@link #drain()} runs at most before it gives up: handlers may enqueue forever. */
	public static final int DRAIN_LIMIT = 1_000;

	/** The longest {@link #advance(Duration)}, as for an enqueue's delay. */
	public static final Duration MAX_ADVANCE = Duration.ofDays(365_000);

	private final TestHooks hooks;

	private final EnqueuedJobs enqueued;

	private final PayloadKinds kinds;

	private final JobDrainer drainer;

	private final InlineRunner inline;

	private final BooleanSupplier workersRunning;

	JobQueueTester(TestHooks hooks, EnqueuedJobs enqueued, PayloadKinds kinds, JobDrainer drainer, InlineRunner inline,
			BooleanSupplier workersRunning) {
		this.hooks = hooks;
		this.enqueued = enqueued;
		this.kinds = kinds;
		this.drainer = drainer;
		this.inline = inline;
		this.workersRunning = workersRunning;
	}

	/** From now on, only jobs enqueued after this call count as enqueued in this test. Called before each test. */
	public void resetEnqueued() {
		enqueued.reset();
	}

	/** Every job enqueued in this test, in the order enqueued, whatever its state now. */
	public List<Job> enqueued() {
		return enqueued.all();
	}

	public List<Job> enqueued(String kind) {
		return enqueued.ofKinds(List.of(kind));
	}

	/** The payloads of the jobs enqueued in this test whose kind's handler takes {@code payloadType}. */
	public <T> List<T> enqueued(Class<T> payloadType) {
		return enqueued.payloads(payloadType);
	}

	/** Fails, listing what was enqueued, unless a job of {@code kind} was enqueued in this test; returns it. */
	public Job assertEnqueued(String kind) {
		return enqueued.assertEnqueued(List.of(kind), Object.class, payload -> true, "job of kind '" + kind + "'");
	}

	/** Fails unless a job whose kind's handler takes {@code payloadType} was enqueued in this test. */
	public <T> Job assertEnqueued(Class<T> payloadType) {
		List<String> wanted = kinds.of(payloadType);
		return enqueued.assertEnqueued(wanted, payloadType, payload -> true, described(wanted, payloadType, ""));
	}

	/** Fails unless such a job whose payload meets {@code condition} was enqueued in this test; returns it. */
	public <T> Job assertEnqueued(Class<T> payloadType, Predicate<? super T> condition) {
		List<String> wanted = kinds.of(payloadType);
		return enqueued.assertEnqueued(wanted, payloadType, condition,
				described(wanted, payloadType, " that matches the condition"));
	}

	/** Fails, listing them, when jobs of {@code kind} were enqueued in this test. */
	public void assertNotEnqueued(String kind) {
		enqueued.assertNotEnqueued(List.of(kind), Object.class, payload -> true, "job of kind '" + kind + "'");
	}

	public <T> void assertNotEnqueued(Class<T> payloadType) {
		List<String> wanted = kinds.of(payloadType);
		enqueued.assertNotEnqueued(wanted, payloadType, payload -> true, described(wanted, payloadType, ""));
	}

	/** Fails when a job whose payload meets {@code condition} was enqueued in this test. */
	public <T> void assertNotEnqueued(Class<T> payloadType, Predicate<? super T> condition) {
		List<String> wanted = kinds.of(payloadType);
		enqueued.assertNotEnqueued(wanted, payloadType, condition,
				described(wanted, payloadType, " that matches the condition"));
	}

	/**
	 * Runs every due job on this thread, one at a time, until none is due: jobs its handlers enqueue to run
	 * now, and failures retried at once, included; a retry waits for its backoff ({@link #advance}). Each
	 * outcome is written when it returns. Runs every due job in the database, not only this test's.
	 *
	 * @throws IllegalStateException when the background workers run (they would take jobs from under it),
	 * or when {@link #DRAIN_LIMIT} executions did not end it
	 */
	public List<DrainedJob> drain() {
		if (workersRunning.getAsBoolean()) {
			throw new IllegalStateException("drain() runs jobs on the test's thread and needs the queue's "
					+ "background workers off: set jobqueue.worker.enabled=false for this test, or annotate it "
					+ "@AutoConfigureJobQueue");
		}
		List<DrainedJob> ran = drainer.drain(DRAIN_LIMIT).stream()
			.map(run -> new DrainedJob(run.id(), run.kind(), run.queue(), run.attempt(), run.outcome(), run.error()))
			.toList();
		if (ran.size() == DRAIN_LIMIT) {
			throw new IllegalStateException("drain() stopped after " + DRAIN_LIMIT + " executions with jobs "
					+ "possibly still due (" + countedByKind(ran)
					+ "): does a handler enqueue a job every time it runs?");
		}
		return ran;
	}

	/** {@link #advance(Duration) Advances} the clock by {@code ahead}, then {@link #drain() drains}. */
	public List<DrainedJob> drain(Duration ahead) {
		advance(ahead);
		return drain();
	}

	/**
	 * Moves every ready or blocked job's due time {@code by} earlier, as if that much time had passed: a job
	 * delayed by an hour, or a retry waiting for its backoff, is due after {@code advance(Duration.ofHours(1))};
	 * one waiting behind its concurrency key is due once the key's slot is free.
	 * The database's clock decides what is due and cannot be moved, so the jobs move instead; jobs
	 * enqueued or retried later are due from the database's own time. Returns how many jobs moved.
	 */
	public int advance(Duration by) {
		if (by == null || by.isNegative() || by.isZero() || by.compareTo(MAX_ADVANCE) > 0) {
			throw new IllegalArgumentException("advance takes a positive duration up to " + MAX_ADVANCE + ", was "
					+ by);
		}
		return hooks.bringReadyForward(by);
	}

	/**
	 * Runs the handler of {@code kind} on this thread, without the database, and returns its result. The
	 * payload goes through JSON as the runtime would bind it, so a payload the handler cannot bind fails.
	 * A transactional handler runs in whatever transaction the test has, and its job id is 0.
	 *
	 * @throws IllegalArgumentException when no handler here serves {@code kind}; else what the handler throws
	 */
	public Object perform(String kind, Object payload) throws Exception {
		return inline.perform(kind, payload);
	}

	/** {@link #perform(String, Object)} for the one kind whose handler takes the payload's type. */
	public Object perform(Object payload) throws Exception {
		if (payload == null) {
			throw new IllegalArgumentException("payload must not be null: name the kind, perform(kind, null)");
		}
		return inline.perform(kinds.only(payload.getClass()), payload);
	}

	/** Such as "job of kind 'send-mail' (payload SendMail) that matches the condition". */
	private static String described(List<String> kinds, Class<?> payloadType, String condition) {
		String named = kinds.size() == 1 ? "of kind '" + kinds.get(0) + "'" : "of kinds " + kinds;
		return "job " + named + " (payload " + payloadType.getSimpleName() + ")" + condition;
	}

	private static String countedByKind(List<DrainedJob> ran) {
		Map<String, Integer> counts = new TreeMap<>();
		ran.forEach(job -> counts.merge(job.kind(), 1, Integer::sum));
		return counts.toString();
	}
}
