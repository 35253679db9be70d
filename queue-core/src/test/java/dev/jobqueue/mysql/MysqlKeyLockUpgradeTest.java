package dev.jobqueue.mysql;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import javax.sql.DataSource;

import org.flywaydb.core.Flyway;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.simple.JdbcClient;

import dev.jobqueue.JobState;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.support.DatabaseOfItsOwn;
import dev.jobqueue.support.MysqlTestDatabase;

/**
 * Tables at schema version 28, with keyed jobs already waiting, upgraded to 29 (the key locks): the waiting jobs are
 * promoted by the key's new row, which the first promotion inserts. In a database of its own on the test server,
 * named after the test database.
 */
class MysqlKeyLockUpgradeTest {

	private static final String KEY = "tenant-upgraded";

	private DatabaseOfItsOwn database;

	private DataSource dataSource;

	@BeforeEach
	void createDatabase() {
		database = new DatabaseOfItsOwn(MysqlTestDatabase.url(), "key_upgrade");
		dataSource = database.dataSource();
	}

	@AfterEach
	void dropDatabase() {
		database.close();
	}

	@Test
	void jobsWaitingBeforeTheUpgradeArePromotedUnderTheKeysNewRow() {
		Flyway.configure(JobSchema.class.getClassLoader())
			.configuration(JobSchema.flyway(dataSource, MysqlDialect.VENDOR).getConfiguration())
			.target("28")
			.load()
			.migrate();
		JobStore store = MysqlDialect.jobStore(dataSource);
		assertThat(store.reads().schemaVersion()).hasValue(28);
		List<Long> waiting = List.of(enqueue(store), enqueue(store), enqueue(store));

		JobSchema.flyway(dataSource, MysqlDialect.VENDOR).migrate();

		assertThat(store.reads().schemaVersion()).hasValue(JobSchema.VERSION);
		assertThat(keyRows()).isEmpty();
		assertThat(store.promotions().promote(Set.of(KEY))).containsExactly("default");
		assertThat(waiting).extracting(id -> store.reads().find(id).orElseThrow().state())
			.containsExactly(JobState.ready, JobState.blocked, JobState.blocked);
		assertThat(keyRows()).containsExactly(KEY);
		assertThat(store.promotions().promote(Set.of(KEY))).isEmpty();
		assertThat(keyRows()).containsExactly(KEY);
	}

	private static long enqueue(JobStore store) {
		return store.enqueues()
			.enqueue(new NewJob("default", "step", "{}", 1, 0, null, Duration.ZERO, 1, null,
					new NewJob.KeySlot(KEY, 1, false)))
			.id();
	}

	private List<String> keyRows() {
		return JdbcClient.create(dataSource).sql("SELECT concurrency_key FROM jobqueue_key").query(String.class).list();
	}
}
