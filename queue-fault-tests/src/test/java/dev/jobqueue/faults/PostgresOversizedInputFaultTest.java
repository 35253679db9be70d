package dev.jobqueue.faults;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobQueue;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.autoconfigure.JobQueueAutoConfiguration;
import dev.jobqueue.faults.app.Probe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Scenario 8: input too big for the queue. A payload over the maximum is refused at enqueue before any SQL,
 * leaving the caller's transaction usable; an error of 5 MB, or one holding NUL characters (which
 * PostgreSQL text cannot store), is stored bounded and clean, and its job is not lost.
 */
class PostgresOversizedInputFaultTest extends FaultScenario {

	@Override
	FaultDatabase newDatabase() {
		return new PostgresFaultDatabase();
	}

	@Test
	void aPayloadOverTheMaximumIsRefusedBeforeAnySqlAndTheCallersTransactionStaysUsable() {
		assertThat(RuntimeSettings.DEFAULT_MAX_PAYLOAD_LENGTH).as("documented default, characters of JSON")
			.isEqualTo(1_048_576);
		CountingDataSource counting = new CountingDataSource(database.dataSource());
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class))
			.withBean("dataSource", DataSource.class, counting::dataSource)
			.withPropertyValues("jobqueue.max-payload-length=1000", "jobqueue.worker.enabled=false")
			.run(context -> {
				JobQueue jobs = context.getBean(JobQueue.class);
				JdbcClient jdbc = JdbcClient.create(context.getBean(DataSource.class));
				new TransactionTemplate(context.getBean(PlatformTransactionManager.class)).executeWithoutResult(tx -> {
					jdbc.sql("INSERT INTO fault_effect (job_id) VALUES (-1)").update();
					int statements = counting.statements();

					assertThatIllegalArgumentException()
						.isThrownBy(() -> jobs.enqueue("probe", Map.of("blob", "x".repeat(5_000))))
						.withMessage("payload of kind 'probe' is 5011 characters of JSON, over the max payload length "
								+ "(jobqueue.max-payload-length) of 1000");
					assertThat(counting.statements()).as("statements sent by the refused enqueue").isEqualTo(statements);

					jdbc.sql("INSERT INTO fault_effect (job_id) VALUES (-2)").update();
					jobs.enqueue("probe", Probe.sleeping(0));
				});
			});
		assertThat(count("SELECT count(*) FROM fault_effect")).as("the caller's writes, committed").isEqualTo(2);
		assertThat(count("SELECT count(*) FROM jobqueue_job")).as("the job enqueued after the refusal").isOne();
	}

	@Test
	void aFiveMegabyteErrorIsStoredBoundedAndNulCharactersLoseNoJob() throws Exception {
		List<Long> huge = enqueue(2, "probe", 2, i -> Probe.sleeping(0).withError(5_000_000, false));
		List<Long> withNul = enqueue(2, "probe", 2, i -> Probe.sleeping(0).withError(1_000, true));
		List<Long> others = enqueue(50, "probe", 5, i -> Probe.sleeping(10));
		try (WorkerFleet fleet = new WorkerFleet(database.jdbcUrl())) {
			fleet.startAll("a");
			awaitDrained(Duration.ofSeconds(60));

			assertThat(errors(huge)).allSatisfy(error -> assertThat(error).hasSize(16_384)
				.startsWith("java.lang.IllegalStateException: xxxxxxxx")
				.containsPattern("\\(\\d+ more characters cut\\)$"));
			assertThat(errors(withNul)).allSatisfy(error -> assertThat(error)
				.startsWith("java.lang.IllegalStateException: \uFFFDxxxxxxxx")
				.doesNotContain("\u0000"));
			Invariants.Report report = checkInvariants(fleet, "scenario 8 (5 MB and NUL-laden errors)",
					huge.size() + withNul.size() + others.size(), List.of());
			report.assertSucceeded(others.size());
			assertThat(report.dead()).isEqualTo(4);
			assertThat(report.reaped()).as("outcomes that could not be written and waited for the lease").isZero();
		}
	}

	private List<String> errors(List<Long> jobs) {
		return database.jdbc()
			.sql("SELECT state || ':' || last_error FROM jobqueue_job WHERE id = ANY (CAST(:ids AS bigint[]))")
			.param("ids", jobs.toArray(Long[]::new))
			.query(String.class)
			.list()
			.stream()
			.map(row -> {
				assertThat(row).startsWith("dead:");
				return row.substring("dead:".length());
			})
			.toList();
	}
}
