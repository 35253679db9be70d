package dev.jobqueue.core;

import java.time.Duration;
import java.util.function.Consumer;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobArgs;
import dev.jobqueue.JobHandlerFunction;
import dev.jobqueue.JobKind;
import dev.jobqueue.JobListener;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobTracing;
import dev.jobqueue.PayloadUpcaster;
import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedule;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JdbcJobQueue;
import dev.jobqueue.runtime.JobAwaiter;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.JobRuntime;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.runtime.ScheduledJobs;
import dev.jobqueue.runtime.UpcasterDefinition;
import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.JobSchema;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.WakeupSource;
import tools.jackson.databind.json.JsonMapper;

/**
 * The queue on a {@code DataSource}, without Spring Boot: the {@link JobQueue} to enqueue to and the
 * workers that run the handlers, in one object to {@link #start()} and {@link #close()}.
 *
 * <pre>{@code
 * JobQueues queues = JobQueues.builder(dataSource)
 *     .handler(SendMail.class, HandlerOptions.defaults().queue("mail"), (mail, context) -> {
 *         mailer.send(mail);
 *         return null; // or a result, stored with the job as JSON
 *     })
 *     .queue("mail", 2)
 *     .build();
 * queues.start();
 * // SendMail: @JobKind("send-mail") record SendMail(String to) implements JobArgs
 * queues.jobQueue().enqueue(new SendMail("ada@example.com"));
 * }</pre>
 *
 * {@link Builder#build()} creates or upgrades the queue's tables (unless told not to); the database is
 * recognised from the connection (PostgreSQL or SQLite).
 */
public final class JobQueues implements AutoCloseable {

	private final JdbcJobQueue jobQueue;

	private final JobRuntime runtime;

	private JobQueues(JdbcJobQueue jobQueue, JobRuntime runtime) {
		this.jobQueue = jobQueue;
		this.runtime = runtime;
	}

	public static Builder builder(DataSource dataSource) {
		return new Builder(dataSource);
	}

	/** Enqueues and looks up jobs; joins a Spring transaction bound to the {@code DataSource}, if any. */
	public JobQueue jobQueue() {
		return jobQueue;
	}

	/** Starts the workers of every queue, and the heartbeat, the reaper and the other maintenance roles. */
	public void start() {
		runtime.start();
	}

	public boolean isRunning() {
		return runtime.isRunning();
	}

	/**
	 * Stops gracefully: claims no more jobs, waits for running ones up to the shutdown timeout, then
	 * interrupts them and gives back the jobs whose handlers exit; stops what awaiting started.
	 */
	@Override
	public void close() {
		runtime.stop();
		jobQueue.close();
	}

	/** Collects the handlers and settings of a {@link JobQueues}. */
	public static final class Builder {

		private final DataSource dataSource;

		private final HandlerRegistry handlers = new HandlerRegistry();

		private final RuntimeSettings.Builder settings = RuntimeSettings.builder();

		private JsonMapper json = JsonMapper.builder().build();

		private JobListener listener = JobListener.NONE;

		private JobTracing tracing = JobTracing.NONE;

		private boolean migrateSchema = true;

		private boolean notify = true;

		private Builder(DataSource dataSource) {
			if (dataSource == null) {
				throw new IllegalArgumentException("dataSource must not be null");
			}
			this.dataSource = dataSource;
		}

		/** Runs jobs of {@code kind} with {@code handler}, on queue {@code default}. */
		public <T> Builder handler(String kind, Class<T> payloadType, JobHandlerFunction<? super T> handler) {
			return handler(kind, payloadType, HandlerOptions.defaults(), handler);
		}

		/**
		 * Runs jobs of {@code kind} with {@code handler}, their payload bound to {@code payloadType}.
		 * @throws IllegalStateException when another handler serves {@code kind} already
		 */
		public <T> Builder handler(String kind, Class<T> payloadType, HandlerOptions options,
				JobHandlerFunction<? super T> handler) {
			if (kind == null || kind.isBlank()) {
				throw new IllegalArgumentException("kind must not be blank");
			}
			handlers.register(new JobHandlerDefinition(kind, options.queue(), payloadType, options.retryPolicy(),
					options.transactional(), (payload, context) -> handler.handle(payloadType.cast(payload), context),
					"handler of '" + kind + "'", options.timeout(), options.version(), options.nullablePayload(),
					new KeyLimits(options.concurrencyKeyLimit(), options.deadJobBlocksKey(),
							options.clusterConcurrency(), options.rateStarts(), options.ratePeriod())));
			return this;
		}

		/** Runs jobs of the kind {@code payloadType} names with its {@link JobKind}, on queue {@code default}. */
		public <T extends JobArgs> Builder handler(Class<T> payloadType, JobHandlerFunction<? super T> handler) {
			return handler(payloadType, HandlerOptions.defaults(), handler);
		}

		/**
		 * Runs jobs of the kind {@code payloadType} names with its {@link JobKind}.
		 * @throws IllegalArgumentException when {@code payloadType} has no {@code @JobKind}
		 */
		public <T extends JobArgs> Builder handler(Class<T> payloadType, HandlerOptions options,
				JobHandlerFunction<? super T> handler) {
			JobKind kind = payloadType.getAnnotation(JobKind.class);
			if (kind == null) {
				throw new IllegalArgumentException(payloadType.getName() + " names no kind: annotate it "
						+ "@JobKind(\"…\"), or register its handler with handler(kind, " + payloadType.getSimpleName()
						+ ".class, …)");
			}
			return handler(kind.value(), payloadType, options, handler);
		}

		/**
		 * Upcasts payloads of {@code kind} from version {@code from} to the next, for a handler whose
		 * {@link HandlerOptions#version(int) version} is higher; checked with the others at {@link #build()}.
		 */
		public Builder upcaster(String kind, int from, PayloadUpcaster upcaster) {
			handlers.registerUpcaster(new UpcasterDefinition(kind, from, upcaster,
					"upcaster of '" + kind + "' from version " + from));
			return this;
		}

		/**
		 * Fires {@code schedule} under {@code name}, shared with every other node that declares that name:
		 * each fire time enqueues one job in the whole cluster. Checked against the handlers at
		 * {@link #build()}.
		 *
		 * <pre>{@code
		 * .schedule("nightly", Schedule.cron("0 0 2 * * *", ZoneId.of("Europe/Paris")).kind("nightly-report"))
		 * }</pre>
		 */
		public Builder schedule(String name, Schedule schedule) {
			handlers.registerSchedule(new ScheduleDefinition(name, schedule, "JobQueues.Builder.schedule"));
			return this;
		}

		/** Lets jobs of {@code kind} be enqueued here for another application to run. */
		public Builder externalKind(String kind) {
			handlers.declareExternal(kind);
			return this;
		}

		/**
		 * Works queue {@code name} with {@code concurrency} threads, besides {@code default}; 0 takes the queue
		 * off this node ({@code queue("default", 0)} for a node that works only the queues named here).
		 */
		public Builder queue(String name, int concurrency) {
			settings.queue(name, concurrency);
			return this;
		}

		/** Changes any runtime setting; see {@link RuntimeSettings} for them and their defaults. */
		public Builder settings(Consumer<RuntimeSettings.Builder> customizer) {
			customizer.accept(settings);
			return this;
		}

		/** The mapper payloads and results are written and read with. */
		public Builder jsonMapper(JsonMapper json) {
			this.json = json;
			return this;
		}

		/** Told of every enqueue, start, finish and reap, for metrics. */
		public Builder listener(JobListener listener) {
			this.listener = listener;
			return this;
		}

		/** Opens the spans of enqueues and executions and carries the trace from one to the other; none by default. */
		public Builder tracing(JobTracing tracing) {
			if (tracing == null) {
				throw new IllegalArgumentException("tracing must not be null; JobTracing.NONE traces nothing");
			}
			this.tracing = tracing;
			return this;
		}

		/** Whether {@link #build()} creates or upgrades the queue's tables; true by default. */
		public Builder migrateSchema(boolean migrateSchema) {
			this.migrateSchema = migrateSchema;
			return this;
		}

		/**
		 * On PostgreSQL, whether nodes wake each other with LISTEN/NOTIFY; true by default. False behind
		 * PgBouncer in transaction pooling mode, where LISTEN cannot work: no notification is sent, no
		 * connection listens, and workers find jobs enqueued elsewhere at their next poll. Ignored on SQLite.
		 */
		public Builder notify(boolean notify) {
			this.notify = notify;
			return this;
		}

		/**
		 * Checks the settings, upcasters and schedules, migrates the schema (unless turned off), checks its
		 * version ({@link JobSchema#verify}), and returns the queues, not started.
		 */
		public JobQueues build() {
			RuntimeSettings runtimeSettings = settings.build();
			handlers.verifyUpcasters();
			ScheduledJobs.resolve(handlers, json, runtimeSettings.retryPolicy());
			Dialect dialect = JobStores.dialect(dataSource);
			if (migrateSchema) {
				dialect.migrate(dataSource);
			}
			JobStore store = dialect.store(dataSource, notify, Duration.ZERO);
			JobSchema.verify(store);
			JobRuntime runtime = new JobRuntime(store, store, handlers, json, runtimeSettings, listener, tracing,
					dialect.handlerTransactions(new TransactionTemplate(new JdbcTransactionManager(dataSource))));
			WakeupSource wakeups = dialect.wakeups(dataSource, runtimeSettings.queues().keySet(), notify);
			if (wakeups != null) {
				runtime.addWakeupSource(wakeups);
			}
			JobAwaiter awaiter = new JobAwaiter(store.reads(), dialect.finishes(dataSource, notify),
					runtimeSettings.pollInterval());
			return new JobQueues(new JdbcJobQueue(store, json, handlers, runtimeSettings, listener, tracing,
					() -> runtime, awaiter), runtime);
		}
	}
}
