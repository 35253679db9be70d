package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.Arrays;
import java.util.function.LongConsumer;

import org.jobrunr.configuration.JobRunr;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.common.SqlStorageProviderFactory;
import org.jobrunr.storage.sql.postgres.PostgresStorageProvider;
import org.jobrunr.storage.sql.sqlite.SqLiteStorageProvider;

/**
 * JobRunr on its PostgreSQL, SQLite or MySQL/MariaDB storage provider (the last chosen by JobRunr from the
 * server's metadata, as it has one for each), 32 workers and the shortest poll interval it accepts.
 * JobRunr is configured once per JVM (it keeps static state); its server is started and stopped.
 */
final class JobRunrContender implements Contender {

	/** JobRunr refuses poll intervals under 5 seconds. */
	static final Duration POLL_INTERVAL = Duration.ofSeconds(5);

	private final Database database;

	private final JobScheduler scheduler;

	private final BackgroundJobServer server;

	JobRunrContender(Database database, boolean withServer) {
		this.database = database;
		StorageProvider storage = storage(database);
		var configuration = JobRunr.configure().useStorageProvider(storage);
		if (withServer) {
			configuration.useBackgroundJobServer(BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
				.andWorkerCount(32)
				.andPollInterval(POLL_INTERVAL), false);
		}
		var result = configuration.initialize();
		this.scheduler = result.getJobScheduler();
		this.server = result.getBackgroundJobServer();
	}

	private static StorageProvider storage(Database database) {
		if (database.sqlite()) {
			return new SqLiteStorageProvider(database.dataSource());
		}
		return database.mysql() ? SqlStorageProviderFactory.using(database.dataSource())
				: new PostgresStorageProvider(database.dataSource());
	}

	@Override
	public String name() {
		return "JobRunr";
	}

	@Override
	public void reset() {
		database.jdbc().sql("DELETE FROM jobrunr_jobs").update();
	}

	@Override
	public void enqueue(long data) {
		Long boxed = data;
		scheduler.enqueue(() -> JobRunrWork.execute(boxed));
	}

	@Override
	public void enqueueBulk(long[] data) {
		scheduler.<Long>enqueue(Arrays.stream(data).boxed(), d -> JobRunrWork.execute(d));
	}

	@Override
	public void startWorkers(LongConsumer onExecute) {
		JobRunrWork.sink = onExecute;
		server.start();
	}

	@Override
	public void stopWorkers() {
		if (server != null && server.isRunning()) {
			server.stop();
		}
	}

	@Override
	public void close() {
		stopWorkers();
		JobRunr.destroy();
	}
}
