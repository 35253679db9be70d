package dev.jobqueue.faults;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

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

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataIntegrityViolationException;

import dev.jobqueue.faults.app.Canary;
import dev.jobqueue.faults.app.Probe;

/**
 * Scenario 7: hostile rows written straight into the jobs table — type hints naming a class, a kind
 * naming a class, Java-serialized bytes, JSON too deep or out of range. No worker loads the class they
 * name (the {@link Canary} would leave a mark), each ends dead on its first attempt with an error saying
 * why, and other jobs keep flowing.
 */
class PostgresHostilePayloadFaultTest extends FaultScenario {

	private static final String CANARY = Canary.class.getName();

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Test
	void hostileRowsLoadNoClassAndEndDeadOnTheirFirstAttemptWhileOthersFlow() throws Exception {
		Map<String, String> hostile = hostileRows();
		List<Long> ids = hostile.entrySet().stream().map(row -> insert(row.getKey().split(" ")[0], row.getValue())).toList();
		List<Long> others = enqueue(50, "probe", 5, i -> Probe.sleeping(10));
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl())) {
			fleet.startAll("a", "b");
			awaitDrained(Duration.ofSeconds(60));

			assertThat(fleet.canaryMark()).as("mark of a Canary initialized in a worker").doesNotExist();
			List<String> outcomes = database.jdbc()
				.sql("SELECT kind || ': ' || state || ' after ' || attempt || ': ' || split_part(last_error, E'\\n', 1) "
						+ "FROM jobqueue_job WHERE id = ANY (CAST(:ids AS bigint[])) ORDER BY id")
				.param("ids", ids.toArray(Long[]::new))
				.query(String.class)
				.list();
			assertThat(outcomes).hasSize(hostile.size()).allMatch(outcome -> outcome.contains(": dead after 1: "));
			assertThat(outcomes).allMatch(outcome -> outcome.contains("NonRetryableException"));
			assertThat(outcomes).filteredOn(outcome -> outcome.startsWith("probe"))
				.allMatch(outcome -> outcome.contains("does not fit dev.jobqueue.faults.app.Probe"));
			assertThat(outcomes).filteredOn(outcome -> !outcome.startsWith("probe"))
				.allMatch(outcome -> outcome.contains("no handler for kind"));
			outcomes.forEach(outcome -> System.out.println("hostile row " + outcome));
			Invariants.Report report = checkInvariants(fleet, "scenario 7 (hostile payloads)",
					hostile.size() + others.size(), List.of());
			report.assertSucceeded(others.size());
		}
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
			.withMessageContaining("invalid input syntax for type json");
	}

	private static Map<String, String> hostileRows() throws IOException {
		Map<String, String> rows = new LinkedHashMap<>();
		rows.put("probe class-property", "{\"@class\": \"" + CANARY + "\", \"sleepMillis\": 0, \"failTimes\": 0, "
				+ "\"halt\": false, \"ignoreInterrupt\": false, \"errorChars\": 0, \"nulInError\": false, \"record\": false}");
		rows.put("probe wrapper-array", "[\"" + CANARY + "\", {\"note\": \"x\"}]");
		rows.put("probe nested-type", "{\"sleepMillis\": {\"@type\": \"" + CANARY + "\"}}");
		rows.put("probe serialized", "\"" + Base64.getEncoder().encodeToString(javaSerializedCanary()) + "\"");
		rows.put("probe too-deep", "[".repeat(5_000) + "]".repeat(5_000));
		rows.put("probe out-of-range", "{\"sleepMillis\": 99999999999999999999999999}");
		rows.put(CANARY + " kind-is-a-class", "{}");
		rows.put("java.lang.Runtime kind-is-a-jdk-class", "{}");
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

	private long insert(String kind, String payload) {
		return database.jdbc()
			.sql("""
					INSERT INTO jobqueue_job (queue, kind, payload, state, max_attempts)
					VALUES ('default', :kind, CAST(:payload AS jsonb), 'ready', 5) RETURNING id""")
			.param("kind", kind)
			.param("payload", payload)
			.query(Long.class)
			.single();
	}

	/** Initializes the Canary in a JVM of its own: the positive control of the canary itself. */
	static final class LoadCanary {

		public static void main(String[] args) throws ClassNotFoundException {
			Class.forName(CANARY, true, LoadCanary.class.getClassLoader());
		}
	}
}
