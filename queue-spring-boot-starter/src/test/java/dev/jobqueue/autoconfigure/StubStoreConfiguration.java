package dev.jobqueue.autoconfigure;

import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.OptionalInt;

import javax.sql.DataSource;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.store.BatchStore;
import dev.jobqueue.store.ClaimStore;
import dev.jobqueue.store.DependencyStore;
import dev.jobqueue.store.EnqueueStore;
import dev.jobqueue.store.ExplainReads;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.MaintenanceStore;
import dev.jobqueue.store.NodeStore;
import dev.jobqueue.store.OperatorReads;
import dev.jobqueue.store.OperatorWrites;
import dev.jobqueue.store.OutcomeStore;
import dev.jobqueue.store.PauseStore;
import dev.jobqueue.store.PromotionStore;
import dev.jobqueue.store.ScheduleStore;
import dev.jobqueue.store.StepStore;
import dev.jobqueue.store.TelemetryStore;

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
		JobStore store = mockedStore("postgresql");
		given(store.reads().schemaVersion()).willReturn(OptionalInt.of(JobSchema.VERSION));
		return store;
	}

	/** A store of {@code vendor} whose every role is a mock: it answers empty until a test says otherwise. */
	static JobStore mockedStore(String vendor) {
		return new JobStore(vendor, mock(EnqueueStore.class), mock(ClaimStore.class), mock(OutcomeStore.class),
				mock(PromotionStore.class), mock(PauseStore.class), mock(ScheduleStore.class),
				mock(MaintenanceStore.class), mock(NodeStore.class), mock(OperatorReads.class), mock(ExplainReads.class),
				mock(OperatorWrites.class), mock(TelemetryStore.class), mock(StepStore.class),
				mock(DependencyStore.class), mock(BatchStore.class));
	}
}
