package dev.jobqueue.test;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import dev.jobqueue.Job;
import dev.jobqueue.store.TestHooks;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * The jobs enqueued since a watermark (the highest job id when the test began, see
 * {@link JobQueueTester#resetEnqueued()}), read through the store, so inside the test's transaction too,
 * and the assertions over them, whose failures list what was enqueued instead.
 */
final class EnqueuedJobs {

	private static final int PAGE = 1_000;

	/** How many jobs a failure message lists; the rest are counted. */
	private static final int LISTED = 20;

	private static final int PAYLOAD_SHOWN = 200;

	private final TestHooks hooks;

	private final JsonMapper json;

	private final PayloadKinds kinds;

	private volatile long watermark;

	EnqueuedJobs(TestHooks hooks, JsonMapper json, PayloadKinds kinds) {
		this.hooks = hooks;
		this.json = json;
		this.kinds = kinds;
	}

	void reset() {
		watermark = hooks.newestId();
	}

	List<Job> all() {
		List<Job> jobs = new ArrayList<>();
		long after = watermark;
		List<Job> page;
		do {
			page = hooks.findNewerThan(after, PAGE);
			jobs.addAll(page);
			after = page.isEmpty() ? after : page.get(page.size() - 1).id();
		}
		while (page.size() == PAGE);
		return jobs;
	}

	List<Job> ofKinds(List<String> wanted) {
		return all().stream().filter(job -> wanted.contains(job.kind())).toList();
	}

	<T> List<T> payloads(Class<T> type) {
		return ofKinds(kinds.of(type)).stream().map(job -> bind(job, type)).toList();
	}

	/** The first job of {@code wanted} kinds whose payload, bound to {@code type}, meets {@code condition}. */
	<T> Job assertEnqueued(List<String> wanted, Class<T> type, Predicate<? super T> condition, String what) {
		List<Job> all = all();
		return all.stream()
			.filter(job -> wanted.contains(job.kind()))
			.filter(job -> condition.test(bind(job, type)))
			.findFirst()
			.orElseThrow(() -> new AssertionError("Expected a " + what + " enqueued in this test, but none was. "
					+ described(all)));
	}

	<T> void assertNotEnqueued(List<String> wanted, Class<T> type, Predicate<? super T> condition, String what) {
		List<Job> found = ofKinds(wanted).stream().filter(job -> condition.test(bind(job, type))).toList();
		if (!found.isEmpty()) {
			throw new AssertionError("Expected no " + what + " enqueued in this test, but found " + found.size()
					+ ":" + listed(found));
		}
	}

	/** The payload as {@code type}, bound by the mapper the runtime uses; a failed assertion when it cannot be. */
	<T> T bind(Job job, Class<T> type) {
		if (type == Object.class) {
			return type.cast(job.payload());
		}
		try {
			return json.readValue(job.payload(), type);
		}
		catch (JacksonException ex) {
			throw new AssertionError("The payload of job " + job.id() + " (" + job.kind() + ") does not bind to "
					+ type.getName() + ": " + ex.getOriginalMessage() + "; the payload: " + job.payload(), ex);
		}
	}

	static String described(List<Job> jobs) {
		return jobs.isEmpty() ? "Enqueued in this test: none." : "Enqueued in this test (" + jobs.size() + "):"
				+ listed(jobs);
	}

	private static String listed(List<Job> jobs) {
		StringBuilder text = new StringBuilder();
		jobs.stream().limit(LISTED).forEach(job -> text.append("\n  #").append(job.id()).append(' ')
			.append(job.kind()).append(" (queue ").append(job.queue()).append(", ").append(job.state())
			.append(") ").append(shortened(job.payload())));
		if (jobs.size() > LISTED) {
			text.append("\n  … and ").append(jobs.size() - LISTED).append(" more");
		}
		return text.toString();
	}

	private static String shortened(String payload) {
		return payload.length() <= PAYLOAD_SHOWN ? payload : payload.substring(0, PAYLOAD_SHOWN) + "…";
	}
}
