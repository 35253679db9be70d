package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.store.JobSchema;
import dev.jobqueue.support.TestDatabase;

/**
 * The schema version the migrations record is the one the code was built for, and a node refuses to start on
 * tables older than that, naming both versions.
 */
public abstract class SchemaVersionContractTest {

	private static final Pattern MIGRATION = Pattern.compile("V(\\d+)__.*\\.sql");

	protected abstract TestDatabase database();

	@AfterEach
	void putTheVersionBack() {
		setRecordedVersion(JobSchema.VERSION);
	}

	@Test
	void theMigratedTablesRecordTheCodesVersionWhichIsTheLastMigrations() {
		assertThat(database().store().reads().schemaVersion()).hasValue(JobSchema.VERSION);
		assertThat(lastMigration()).as("the last migration of %s, which must set jobqueue_schema_version to its version",
				database().store().vendor()).isEqualTo(JobSchema.VERSION);
		assertThatNoException().isThrownBy(() -> JobSchema.verify(database().store()));
	}

	@Test
	void tablesOlderThanTheCodeAreRefusedNamingBothVersions() {
		setRecordedVersion(JobSchema.VERSION - 1);

		assertThatIllegalStateException().isThrownBy(() -> JobSchema.verify(database().store()))
			.withMessageContaining("at schema version " + (JobSchema.VERSION - 1))
			.withMessageContaining("needs version " + JobSchema.VERSION)
			.withMessageContaining("db/jobqueue/" + database().store().vendor())
			.withMessageContaining("jobqueue.initialize-schema=always");
	}

	@Test
	void tablesANewerNodeMigratedAreAccepted() {
		setRecordedVersion(JobSchema.VERSION + 1);

		assertThatNoException().isThrownBy(() -> JobSchema.verify(database().store()));
	}

	private void setRecordedVersion(int version) {
		JdbcClient.create(database().dataSource())
			.sql("UPDATE jobqueue_schema_version SET version = :version")
			.param("version", version)
			.update();
	}

	private int lastMigration() {
		URL folder = JobSchema.class.getClassLoader().getResource("db/jobqueue/" + database().store().vendor());
		try (Stream<Path> files = Files.list(Path.of(folder.toURI()))) {
			return files.map(file -> MIGRATION.matcher(file.getFileName().toString()))
				.filter(Matcher::matches)
				.mapToInt(matcher -> Integer.parseInt(matcher.group(1)))
				.max()
				.orElseThrow();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException(ex);
		}
	}
}
