package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.nio.file.Path;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.PostgresTestDatabase;

class JobQueueSchemaInitializerTests {

	@Test
	void alwaysMigratesAndNeverDoesNot() {
		DataSource dataSource = mock(DataSource.class);

		assertThat(new JobQueueSchemaInitializer(dataSource, store("postgresql"), DatabaseInitializationMode.ALWAYS).isEnabled())
			.isTrue();
		assertThat(new JobQueueSchemaInitializer(dataSource, store("postgresql"), DatabaseInitializationMode.NEVER).isEnabled())
			.isFalse();
	}

	@Test
	void embeddedCountsSqliteAsEmbedded() {
		assertThat(new JobQueueSchemaInitializer(mock(DataSource.class), store("sqlite"), DatabaseInitializationMode.EMBEDDED)
			.isEnabled()).isTrue();
	}

	@Test
	void withoutMigratingTheTablesAreCheckedAndMissingOnesFailTheStartupNamingTheVersionAndTheProperty(@TempDir Path dir) {
		DataSource sqlite = new DriverManagerDataSource("jdbc:sqlite:" + dir.resolve("unmigrated.db"));
		JobQueueSchemaInitializer initializer = new JobQueueSchemaInitializer(sqlite, JobStores.forDataSource(sqlite),
				DatabaseInitializationMode.NEVER);

		assertThatIllegalStateException().isThrownBy(initializer::afterPropertiesSet)
			.withMessageContaining("jobqueue's tables are missing, or older than schema version " + JobSchema.VERSION)
			.withMessageContaining("jobqueue.initialize-schema=always");
	}

	@Test
	void migratingThenCheckingPassesOnANewDatabase(@TempDir Path dir) {
		DataSource sqlite = new DriverManagerDataSource("jdbc:sqlite:" + dir.resolve("new.db"));
		JobStore store = JobStores.forDataSource(sqlite);

		new JobQueueSchemaInitializer(sqlite, store, DatabaseInitializationMode.ALWAYS).afterPropertiesSet();

		assertThat(store.reads().schemaVersion()).hasValue(JobSchema.VERSION);
	}

	@Test
	void embeddedLeavesAPostgresServerAlone() {
		DataSource postgres = new DriverManagerDataSource(PostgresTestDatabase.url());

		assertThat(new JobQueueSchemaInitializer(postgres, store("postgresql"), DatabaseInitializationMode.EMBEDDED)
			.isEnabled()).isFalse();
	}

	private static JobStore store(String vendor) {
		return StubStoreConfiguration.mockedStore(vendor);
	}
}
