package dev.jobqueue.test;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.autoconfigure.JobQueueAutoConfiguration;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.InlineRunner;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobDrainer;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.spring.JobQueueDataSource;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.TestHooks;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JobQueueTester} of a test context that has the queue: with {@code @SpringBootTest}, and in a
 * slice such as {@code @JdbcTest} annotated {@link AutoConfigureJobQueue}.
 */
@AutoConfiguration(after = JobQueueAutoConfiguration.class)
@ConditionalOnBean({ JobStore.class, HandlerRegistry.class, RuntimeSettings.class, JobQueue.class })
public final class JobQueueTestAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JobQueueTester jobQueueTester(JobStore store, HandlerRegistry handlers, RuntimeSettings settings, JobQueue queue,
			ObjectProvider<JobListener> listeners, ObjectProvider<PlatformTransactionManager> transactionManagers,
			@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource,
			ObjectProvider<JobRuntime> runtime) {
		JsonMapper json = payloadMapper(queue);
		DataSource queueConnections = queueDataSource.getIfAvailable(dataSource::getObject);
		Dialect dialect = JobStores.dialect(store.vendor());
		TransactionOperations transactions = dialect
			.handlerTransactions(transactions(transactionManagers, queueConnections));
		// On the store's own DataSource, so that the tester's reads join the test's transaction as the store's do.
		TestHooks hooks = dialect.testHooks(queueConnections);
		PayloadKinds kinds = new PayloadKinds(handlers);
		// The application's listener, if it has one (metrics): a drained job counts as a run one does.
		JobDrainer drainer = new JobDrainer(store, handlers, json, settings,
				listeners.getIfUnique(() -> JobListener.NONE), transactions);
		return new JobQueueTester(hooks, new EnqueuedJobs(hooks, json, kinds), kinds, drainer,
				new InlineRunner(handlers, json, settings), () -> {
					JobRuntime workers = runtime.getIfAvailable();
					return workers != null && workers.isRunning();
				});
	}

	/** The mapper the queue writes payloads with, and its runtime reads them with: the tester binds with it. */
	private static JsonMapper payloadMapper(JobQueue queue) {
		if (queue instanceof JdbcJobQueue own) {
			return own.payloadMapper();
		}
		throw new IllegalStateException("JobQueueTester needs the queue's own JobQueue, to bind payloads as the "
				+ "queue does, and this application declares a JobQueue bean of its own (" + queue.getClass().getName()
				+ "): leave out queue-test, or the JobQueue bean in tests");
	}

	/**
	 * Transactional handlers' transactions in a drain: those of the application's transaction manager, as in
	 * the runtime when it manages the queue's {@code DataSource}, else ours on that {@code DataSource}. In a
	 * {@code @Transactional} test either joins the test's transaction, so a handler's failure marks it
	 * rollback-only and its writes are undone with the test's, not at once as in the runtime.
	 */
	private static TransactionOperations transactions(ObjectProvider<PlatformTransactionManager> managers,
			DataSource dataSource) {
		PlatformTransactionManager application = managers.getIfUnique();
		return new TransactionTemplate(application != null ? application : new JdbcTransactionManager(dataSource));
	}
}
