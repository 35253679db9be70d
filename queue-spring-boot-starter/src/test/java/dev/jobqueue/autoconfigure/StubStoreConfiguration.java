package dev.jobqueue.autoconfigure;

import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalInt;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;

/**
 * A DataSource whose connections are always valid and a store that finds no jobs: enough for the
 * auto-configuration to wire everything and start its workers, without a database.
 */
@Configuration(proxyBeanMethods = false)
class StubStoreConfiguration {

	@Bean
	DataSource dataSource() throws SQLException {
		Connection connection = mock(Connection.class);
		given(connection.isValid(2)).willReturn(true);
		DataSource dataSource = mock(DataSource.class);
		given(dataSource.getConnection()).willReturn(connection);
		return dataSource;
	}

	@Bean
	JobStore jobStore() {
		return stubStore();
	}

	/** A store on tables at this code's schema version, holding no jobs. */
	static JobStore stubStore() {
		JobStore store = mock(JobStore.class);
		given(store.vendor()).willReturn("postgresql");
		given(store.schemaVersion()).willReturn(OptionalInt.of(JobSchema.VERSION));
		return store;
	}
}
