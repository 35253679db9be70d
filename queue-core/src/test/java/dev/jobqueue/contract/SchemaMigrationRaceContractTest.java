package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.support.MigratorProcess;
import dev.jobqueue.support.WorkerProcesses;

/**
 * Processes that start at the same instant on a new database all come up, and the schema is created
 * exactly once: one history row per version. Each round is a new database, started by five JVMs that
 * were waiting for the round's start file.
 */
public abstract class SchemaMigrationRaceContractTest {

	private static final int PROCESSES = 5;

	private static final int ROUNDS = 20;

	/** A JDBC URL with {@code {round}} where the number of a round goes, each round a new, empty database. */
	protected abstract String urlPattern();

	/** Prepares round {@code round}'s empty database, if the database needs it. */
	protected abstract void prepareRound(int round);

	/** How many successful history rows each version has in round {@code round}'s database. */
	protected abstract Map<String, Integer> historyRowsByVersion(int round);

	@Test
	void processesStartingTogetherOnANewDatabaseAllComeUpAndMigrateOnce() throws IOException {
		Path signals = Files.createTempDirectory("jobqueue-migration-race");
		try (WorkerProcesses processes = new WorkerProcesses()) {
			List<String> names = IntStream.rangeClosed(1, PROCESSES).mapToObj(i -> "migrator-" + i).toList();
			for (String name : names) {
				processes.start(MigratorProcess.class, name, urlPattern(), Integer.toString(ROUNDS), signals.toString(),
						name);
			}
			await().atMost(Duration.ofMinutes(3))
				.until(() -> names.stream().allMatch(name -> Files.exists(signals.resolve("ready-" + name))));
			for (int round = 1; round <= ROUNDS; round++) {
				prepareRound(round);
				Files.writeString(signals.resolve("start-" + round), "go");
				assertThat(outcomes(signals, round, names)).as("round %d", round).containsOnly("ok");
				assertThat(historyRowsByVersion(round)).as("round %d", round).isNotEmpty().allSatisfy(
						(version, rows) -> assertThat(rows).as("history rows of version %s", version).isEqualTo(1));
			}
		}
	}

	/** Successful history rows per version, read with {@code jdbc} from a round's database. */
	protected static Map<String, Integer> historyRowsByVersion(JdbcClient jdbc) {
		Map<String, Integer> rows = new TreeMap<>();
		jdbc.sql("SELECT version FROM jobqueue_schema_history WHERE success AND version IS NOT NULL")
			.query(String.class)
			.list()
			.forEach(version -> rows.merge(version, 1, Integer::sum));
		return rows;
	}

	private static List<String> outcomes(Path signals, int round, List<String> names) {
		List<Path> done = names.stream().map(name -> signals.resolve("done-" + round + "-" + name)).toList();
		await().atMost(Duration.ofMinutes(3)).until(() -> done.stream().allMatch(Files::exists));
		return done.stream().map(SchemaMigrationRaceContractTest::read).toList();
	}

	private static String read(Path file) {
		try {
			return Files.readString(file);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}
}
