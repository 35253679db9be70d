package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

import dev.jobqueue.faults.app.Canary;
import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 7: hostile rows written straight into the jobs table — type hints naming a class, a kind
 * naming a class, Java-serialized bytes, JSON too deep or out of range. No worker loads the class they
 * name (the {@link Canary} would leave a mark); a hostile payload fails every attempt with an error saying
 * why and ends dead after its attempts, a kind that no handler serves is never claimed, and other jobs
 * keep flowing.
 */
abstract class HostilePayloadFaultTest extends FaultScenario {

	static final String CANARY = Canary.class.getName();

	static final int ATTEMPTS = 5;

	/**
	 * Inserts a row of {@code kind} with {@code payload} as it is, ready, with {@link #ATTEMPTS} attempts,
	 * bypassing the queue's checks, and returns its id.
	 */
	abstract long insert(String kind, String payload);

	/** What the database says when it refuses malformed JSON in the payload column. */
	abstract String malformedJsonRefusal();

	/**
	 * The hostile rows ({@link #hostilePayloads()}' names) that this database's payload column refuses as it
	 * refuses malformed JSON, so that no worker ever reads them: none unless a subclass says so.
	 */
	Set<String> refusedByThePayloadColumn() {
		return Set.of();
	}

	@Test
	void hostilePayloadsLoadNoClassAndEndDeadAfterTheirAttemptsWhileOthersFlow() throws Exception {
		Map<String, String> hostile = hostilePayloads();
		hostile.keySet().removeAll(refusedByThePayloadColumn());
		List<Long> ids = hostile.values().stream().map(payload -> insert("probe", payload)).toList();
		List<Long> others = enqueue(50, "probe", 5, i -> Probe.sleeping(10));
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl())) {
			fleet.startAll("a", "b");
			awaitDrained(Duration.ofSeconds(60));

			assertThat(fleet.canaryMark()).as("mark of a Canary initialized in a worker").doesNotExist();
			List<String> outcomes = outcomes(ids);
			assertThat(outcomes).hasSize(hostile.size())
				.allMatch(outcome -> outcome.contains(": dead after " + ATTEMPTS + ": "))
				.allMatch(outcome -> outcome.contains("does not fit dev.jobqueue.faults.app.Probe"));
			outcomes.forEach(outcome -> System.out.println("hostile row " + outcome));
			Invariants.Report report = checkInvariants(fleet, "scenario 7 (hostile payloads)",
					hostile.size() + others.size(), List.of());
			report.assertSucceeded(others.size());
		}
	}

	@Test
	void kindsNamingClassesAreNeverClaimedAndLoadNoClass() throws Exception {
		List<Long> ids = List.of(insert(CANARY, "{}"), insert("java.lang.Runtime", "{}"));
		List<Long> others = enqueue(50, "probe", 5, i -> Probe.sleeping(10));
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl())) {
			fleet.startAll("a", "b");
			await("the probes to drain").atMost(Duration.ofSeconds(60))
				.until(() -> count("SELECT count(*) FROM jobqueue_job WHERE kind = 'probe' AND state = 'succeeded'")
						== others.size());

			assertThat(fleet.canaryMark()).as("mark of a Canary initialized in a worker").doesNotExist();
			assertThat(outcomes(ids)).containsExactly(CANARY + ": ready after 0: ",
					"java.lang.Runtime: ready after 0: ");
			assertThat(database.jdbc()
				.sql("""
						SELECT count(*) FROM fault_audit
						WHERE old_state IS NOT NULL AND job_id IN (:ids)""")
				.param("ids", ids)
				.query(Long.class)
				.single()).as("changes to them since their insert").isZero();
		}
	}

	/** Each job's kind, state, attempt and the first line of its last error. */
	private List<String> outcomes(List<Long> ids) {
		return database.jdbc()
			.sql("SELECT kind, state, attempt, last_error FROM jobqueue_job WHERE id IN (:ids) ORDER BY id")
			.param("ids", ids)
			.query((row, n) -> row.getString("kind") + ": " + row.getString("state") + " after " + row.getInt("attempt")
					+ ": " + firstLine(row.getString("last_error")))
			.list();
	}

	private static String firstLine(String error) {
		return error == null ? "" : error.lines().findFirst().orElse("");
	}

	@Test
	void theCanaryLeavesItsMarkWhenItIsLoaded(@org.junit.jupiter.api.io.TempDir Path directory) throws Exception {
		Path mark = directory.resolve("mark");
		Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"),
				"-D" + Canary.MARK_PROPERTY + "=" + mark, "-cp", System.getProperty("java.class.path"),
				LoadCanary.class.getName()).inheritIO().start();

		assertThat(process.waitFor()).isZero();
		assertThat(Files.readString(mark)).startsWith("Canary initialized in process " + process.pid());
	}

	@Test
	void malformedJsonCannotEvenEnterTheTable() {
		assertThatExceptionOfType(DataIntegrityViolationException.class).isThrownBy(() -> insert("probe", "{\"sleepMillis\": "))
			.withMessageContaining(malformedJsonRefusal());
	}

	static Map<String, String> hostilePayloads() throws IOException {
		Map<String, String> rows = new LinkedHashMap<>();
		rows.put("class-property", "{\"@class\": \"" + CANARY + "\", \"sleepMillis\": 0, \"failTimes\": 0, "
				+ "\"halt\": false, \"ignoreInterrupt\": false, \"errorChars\": 0, \"nulInError\": false, \"record\": false}");
		rows.put("wrapper-array", "[\"" + CANARY + "\", {\"note\": \"x\"}]");
		rows.put("nested-type", "{\"sleepMillis\": {\"@type\": \"" + CANARY + "\"}}");
		rows.put("serialized", "\"" + Base64.getEncoder().encodeToString(javaSerializedCanary()) + "\"");
		rows.put("too-deep", "[".repeat(5_000) + "]".repeat(5_000));
		rows.put("out-of-range", "{\"sleepMillis\": 99999999999999999999999999}");
		return rows;
	}

	/** Bytes of a Java-serialized Canary, made without initializing the class in this JVM. */
	private static byte[] javaSerializedCanary() throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
			out.writeObject(new LinkedHashMap<>(Map.of("class", CANARY)));
		}
		return bytes.toByteArray();
	}

	/** Initializes the Canary in a JVM of its own: the positive control of the canary itself. */
	static final class LoadCanary {

		public static void main(String[] args) throws ClassNotFoundException {
			Class.forName(CANARY, true, LoadCanary.class.getClassLoader());
		}
	}
}
