package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.Set;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.jackson.autoconfigure.JacksonAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.sql.init.dependency.DatabaseInitializationDependencyConfigurer;
import org.springframework.boot.sql.init.dependency.DependsOnDatabaseInitialization;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.util.ClassUtils;
import org.springframework.util.function.SingletonSupplier;

import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobTracing;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobAwaiter;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.spring.JobHandler;
import dev.jobqueue.spring.JobQueueCustomizer;
import dev.jobqueue.spring.JobQueueDataSource;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.WakeupSource;
import dev.jobqueue.store.sqlite.SqliteDialect;
import dev.jobqueue.store.sqlite.support.SqliteDataSources;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queue on the application's {@code DataSource} (or the one qualified {@link JobQueueDataSource}): its
 * store and schema, the {@link JobHandler} methods, the {@link JobQueue}, and the workers unless
 * {@code jobqueue.worker.enabled=false}. Every bean steps aside for one of the application's.
 */
@AutoConfiguration(after = { DataSourceAutoConfiguration.class, DataSourceTransactionManagerAutoConfiguration.class,
		JacksonAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBean(DataSource.class)
@EnableConfigurationProperties(JobQueueProperties.class)
@Import(DatabaseInitializationDependencyConfigurer.class)
public final class JobQueueAutoConfiguration {

	@Bean
	static UnknownJobQueueProperties jobQueueUnknownProperties(Environment environment) {
		return new UnknownJobQueueProperties(environment);
	}

	@Bean
	static SqliteDatabaseFolders jobQueueSqliteDatabaseFolders() {
		return new SqliteDatabaseFolders();
	}

	@Bean
	@ConditionalOnMissingBean
	JobStore jobStore(JobQueueProperties properties, @JobQueueDataSource ObjectProvider<DataSource> queueDataSource,
			ObjectProvider<DataSource> dataSource) {
		DataSource resolved = QueueDataSource.resolve(queueDataSource, dataSource);
		if (properties.getDialect() == null) {
			return JobStores.forDataSource(resolved, properties.isNotify());
		}
		try {
			return JobStores.forVendor(properties.getDialect(), resolved, properties.isNotify());
		}
		catch (IllegalStateException ex) {
			throw new IllegalStateException("Invalid jobqueue.dialect: " + ex.getMessage(), ex);
		}
	}

	@Bean
	@ConditionalOnMissingBean
	JobQueueSchemaInitializer jobQueueSchemaInitializer(JobStore store, JobQueueProperties properties,
			@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource) {
		return new JobQueueSchemaInitializer(QueueDataSource.resolve(queueDataSource, dataSource), store,
				properties.getInitializeSchema());
	}

	@Bean
	@ConditionalOnMissingBean
	RuntimeSettings jobQueueRuntimeSettings(JobQueueProperties properties,
			ObjectProvider<JobQueueCustomizer> customizers) {
		RuntimeSettings.Builder settings = properties.runtimeSettings();
		customizers.orderedStream().forEach(customizer -> customizer.customize(settings));
		return settings.build();
	}

	@Bean
	@ConditionalOnMissingBean
	HandlerRegistry jobHandlerRegistry(JobQueueProperties properties) {
		HandlerRegistry registry = new HandlerRegistry();
		properties.getExternalKinds().forEach(registry::declareExternal);
		ConfiguredSchedules.register(properties.getSchedules(), registry);
		return registry;
	}

	@Bean
	@ConditionalOnMissingBean
	JobHandlerMethodProcessor jobHandlerMethodProcessor(HandlerRegistry handlers, JobQueueProperties properties,
			RuntimeSettings settings, ObjectProvider<JsonMapper> jsonMapper) {
		Set<String> workedQueues = properties.getWorker().isEnabled() ? settings.queues().keySet() : Set.of();
		return new JobHandlerMethodProcessor(handlers, settings.retryPolicy(), workedQueues,
				PayloadJson.mapper(jsonMapper));
	}

	@Bean
	@ConditionalOnMissingBean
	@DependsOnDatabaseInitialization
	JobQueue jobQueue(JobStore store, HandlerRegistry handlers, RuntimeSettings settings,
			ObjectProvider<JsonMapper> jsonMapper, ObjectProvider<JobListener> listeners,
			ObjectProvider<JobTracing> tracing, ObjectProvider<JobRuntime> runtime, JobQueueProperties properties,
			@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource) {
		// Looked up at the first enqueue, not now: the workers may not exist yet, and never do on an
		// enqueue-only node. Once found, kept, so that a commit never looks up a bean (even while closing).
		SingletonSupplier<JobRuntime> localRuntime = SingletonSupplier.of(runtime::getIfAvailable);
		// Awaiting works without workers: it listens for finishes on a connection of its own, from the first
		// await until the context closes (JdbcJobQueue.close, Spring's inferred destroy method).
		JobAwaiter awaiter = new JobAwaiter(store.reads(), JobStores.dialect(store.vendor())
			.finishes(QueueDataSource.resolve(queueDataSource, dataSource), properties.isNotify()),
				settings.pollInterval());
		return new JdbcJobQueue(store, PayloadJson.mapper(jsonMapper), handlers, settings, JobListeners.of(listeners),
				tracing.getIfUnique(() -> JobTracing.NONE), localRuntime, awaiter);
	}

	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBooleanProperty(name = "jobqueue.worker.enabled", matchIfMissing = true)
	static class WorkerConfiguration {

		private static final Logger log = LoggerFactory.getLogger(JobQueueAutoConfiguration.class);

		@Bean
		@ConditionalOnMissingBean
		RuntimeConnections jobQueueRuntimeConnections(JobStore store, RuntimeSettings settings, Environment environment,
				@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource) {
			boolean poolSizeChosen = Binder.get(environment)
				.bind("spring.datasource.hikari.maximum-pool-size", Integer.class)
				.isBound();
			return RuntimeConnections.forRuntime(QueueDataSource.resolve(queueDataSource, dataSource), store,
					settings, poolSizeChosen);
		}

		@Bean
		@ConditionalOnMissingBean
		@DependsOnDatabaseInitialization
		JobRuntime jobRuntime(JobStore store, HandlerRegistry handlers, JobQueueProperties properties,
				RuntimeSettings settings, ObjectProvider<JsonMapper> jsonMapper, ObjectProvider<JobListener> listeners,
				ObjectProvider<JobTracing> tracing, ObjectProvider<PlatformTransactionManager> transactionManagers,
				ObjectProvider<WakeupSource> wakeupSources, RuntimeConnections connections,
				@JobQueueDataSource ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource) {
			DataSource resolved = QueueDataSource.resolve(queueDataSource, dataSource);
			Dialect dialect = JobStores.dialect(store.vendor());
			JobStore ownStore = connections.ownStore(store, dialect, settings, properties.isNotify());
			JobRuntime runtime = new JobRuntime(store, ownStore, handlers, PayloadJson.mapper(jsonMapper), settings,
					JobListeners.of(listeners), tracing.getIfUnique(() -> JobTracing.NONE),
					HandlerTransactions.on(dialect, resolved, transactionManagers));
			wakeupSources.orderedStream().forEach(runtime::addWakeupSource);
			// Jobs that other processes enqueue wake these workers at once: through LISTEN on one connection
			// (PostgreSQL), within milliseconds of their commit to the same file (SQLite), or within the change
			// watcher's 50 ms on one connection (MySQL/MariaDB).
			WakeupSource wakeups = dialect.wakeups(connections.dataSource(), settings.queues().keySet(),
					properties.isNotify());
			if (wakeups != null) {
				runtime.addWakeupSource(wakeups);
			}
			if (SqliteDialect.VENDOR.equals(store.vendor())) {
				warnOfShortSqliteLease(settings);
			}
			return runtime;
		}

		/**
		 * On SQLite a heartbeat may wait up to the busy timeout for the write lock; a lease shorter than
		 * that wait plus a heartbeat interval can then run out under a live worker, and its job run twice.
		 * Legal, as delivery is at-least-once, but rarely meant; hence a warning rather than a failure.
		 */
		private static void warnOfShortSqliteLease(RuntimeSettings settings) {
			Duration needed = settings.heartbeatInterval().plus(SqliteDataSources.BUSY_TIMEOUT);
			if (settings.lease().compareTo(needed) <= 0) {
				log.warn("jobqueue.lease-duration ({}) is not longer than jobqueue.heartbeat-interval ({}) plus "
						+ "SQLite's busy timeout ({}): a worker waiting for the write lock may lose the lease of a "
						+ "job it still runs, and the job run again elsewhere", settings.lease(),
						settings.heartbeatInterval(), SqliteDataSources.BUSY_TIMEOUT);
			}
		}

		@Bean
		@ConditionalOnMissingBean
		JobRuntimeLifecycle jobRuntimeLifecycle(JobRuntime runtime) {
			return new JobRuntimeLifecycle(runtime);
		}

		/** Checked before any Logback class loads: an application may log through another SLF4J binding. */
		@Bean(destroyMethod = "close")
		@ConditionalOnBooleanProperty(name = "jobqueue.worker.capture-logs")
		AutoCloseable jobQueueHandlerLogCapture() {
			if (!ClassUtils.isPresent("ch.qos.logback.classic.LoggerContext", getClass().getClassLoader())) {
				throw new IllegalStateException("jobqueue.worker.capture-logs=true copies handlers' Logback output, "
						+ "but Logback is not on the classpath; use Logback (Spring Boot's default logging), or turn "
						+ "the property off");
			}
			return HandlerLogAppender.attach();
		}
	}
}
