package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

import dev.jobqueue.support.PostgresTestDatabase;

class JobQueueSchemaInitializerTests {

	@Test
	void alwaysMigratesAndNeverDoesNot() {
		DataSource dataSource = mock(DataSource.class);

		assertThat(new JobQueueSchemaInitializer(dataSource, "postgresql", DatabaseInitializationMode.ALWAYS).isEnabled())
			.isTrue();
		assertThat(new JobQueueSchemaInitializer(dataSource, "postgresql", DatabaseInitializationMode.NEVER).isEnabled())
			.isFalse();
	}

	@Test
	void embeddedCountsSqliteAsEmbedded() {
		assertThat(new JobQueueSchemaInitializer(mock(DataSource.class), "sqlite", DatabaseInitializationMode.EMBEDDED)
			.isEnabled()).isTrue();
	}

	@Test
	void embeddedLeavesAPostgresServerAlone() {
		DataSource postgres = new DriverManagerDataSource(PostgresTestDatabase.url());

		assertThat(new JobQueueSchemaInitializer(postgres, "postgresql", DatabaseInitializationMode.EMBEDDED)
			.isEnabled()).isFalse();
	}
}
