package dev.jobqueue.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.core.JobStores;
import dev.jobqueue.store.JobStore;

/**
 * A JVM that starts the queue the way an application does (the store for its {@code DataSource}, then
 * the schema) once per round, on a new database each round, as soon as the round's start file appears.
 * Several of them start every round within a millisecond of each other. Arguments: the JDBC URL with
 * {@code {round}} where the round's number goes, the number of rounds, the folder of the signal files,
 * the process's name. It writes {@code ready-<name>} once loaded, then {@code done-<round>-<name>}
 * holding {@code ok} or the failure.
 */
public final class MigratorProcess {

	private MigratorProcess() {
	}

	public static void main(String[] args) throws IOException, InterruptedException {
		String urlPattern = args[0];
		int rounds = Integer.parseInt(args[1]);
		Path signals = Path.of(args[2]);
		String name = args[3];
		Files.writeString(signals.resolve("ready-" + name), "ready");
		for (int round = 1; round <= rounds; round++) {
			Path start = signals.resolve("start-" + round);
			while (!Files.exists(start)) {
				Thread.sleep(1);
			}
			String outcome = startQueue(urlPattern.replace("{round}", Integer.toString(round)));
			// Written aside and moved in, so that the test never reads a file still being written.
			Path written = Files.writeString(signals.resolve("writing-" + round + "-" + name), outcome);
			Files.move(written, signals.resolve("done-" + round + "-" + name), StandardCopyOption.ATOMIC_MOVE);
		}
	}

	private static String startQueue(String url) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(url);
		config.setMaximumPoolSize(2);
		try (HikariDataSource dataSource = new HikariDataSource(config)) {
			JobStore store = JobStores.forDataSource(dataSource);
			JobStores.migrate(dataSource, store.vendor());
			return "ok";
		}
		catch (RuntimeException ex) {
			return "failed: " + ex;
		}
	}
}
