package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import dev.jobqueue.JobQueue;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.runtime.JobRuntime;

/** What a node's queue configuration does when it starts on a real database: initial pauses, dedicated nodes. */
class JobQueuePauseStartupTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, JobQueueAutoConfiguration.class));

	@Test
	void aQueueThatStartsPausedIsPausedByTheFirstWorkerNodeAndARestartLeavesItsResumeAlone() {
		ApplicationContextRunner node = runner.withPropertyValues(
				"spring.datasource.url=" + PostgresSchemas.fresh("starter_initially_paused"),
				"jobqueue.queues.backfill.initially-paused=true");

		node.run(context -> {
			JobQueue queue = context.getBean(JobQueue.class);
			assertThat(queue.pausedQueues()).containsOnlyKeys("backfill");
			assertThat(queue.resume("backfill")).isTrue();
		});
		node.run(context -> assertThat(context.getBean(JobQueue.class).pausedQueues()).isEmpty());
	}

	@Test
	void anEnqueueOnlyNodeWritesNoPause() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_initially_paused_enqueue"),
				"jobqueue.queues.backfill.initially-paused=true", "jobqueue.worker.enabled=false")
			.run(context -> assertThat(context.getBean(JobQueue.class).pausedQueues()).isEmpty());
	}

	@Test
	void aNodeWithTheDefaultQueueAtConcurrencyZeroStartsAndWorksOnlyItsOtherQueues() {
		runner.withPropertyValues("spring.datasource.url=" + PostgresSchemas.fresh("starter_dedicated_node"),
				"jobqueue.queues.default.concurrency=0", "jobqueue.queues.mail.concurrency=2")
			.run(context -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RuntimeSettings.class).queues()).isEqualTo(Map.of("mail", 2));
				JobRuntime runtime = context.getBean(JobRuntime.class);
				assertThat(runtime.isRunning()).isTrue();
				assertThat(runtime.liveness().lastSuccesses()).containsKey("claim mail").doesNotContainKey("claim default");
			});
	}
}
