package dev.jobqueue.autoconfigure.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobQueue;

/**
 * {@code spring.datasource.url=jdbc:sqlite:data/app.db} in a fresh folder: the queue creates {@code data/}
 * before the first connection, or fails in one line naming the folder it could not create.
 */
@ExtendWith(OutputCaptureExtension.class)
class SqliteDatabaseFolderTests {

	@TempDir
	Path folder;

	@Test
	void theMissingFoldersOfTheDatabaseFileAreCreatedAndTheQueueWorks() {
		Path file = folder.resolve("data/nested/app.db");

		try (ConfigurableApplicationContext context = StartupReports.onSqlite(file, List.of())) {
			long id = context.getBean(JobQueue.class).enqueue("greet", "Ada");

			assertThat(file).isRegularFile();
			assertThat(JdbcClient.create(context.getBean(DataSource.class))
				.sql("SELECT kind FROM jobqueue_job WHERE id = :id").param("id", id).query(String.class).single())
				.isEqualTo("greet");
		}
	}

	@Test
	void aFolderThatCannotBeCreatedFailsTheStartupInOneLineNamingIt(CapturedOutput output) throws IOException {
		Files.writeString(folder.resolve("data"), "a file where the folder should be");
		Path file = folder.resolve("data/app.db");

		StartupReports.startupFails(() -> StartupReports.onSqlite(file, List.of()));

		assertThat(output).contains("APPLICATION FAILED TO START")
			.contains("Description:\n\nCannot create the folder " + folder.resolve("data") + " of the SQLite database "
					+ "jdbc:sqlite:" + file + ": java.nio.file.FileAlreadyExistsException: " + folder.resolve("data")
					+ "\n")
			.contains("Action:\n\nCreate the folder, or give the DataSource a URL in a folder the application can "
					+ "write (spring.datasource.url).")
			.doesNotContain("SQLITE_CANTOPEN");
	}
}
