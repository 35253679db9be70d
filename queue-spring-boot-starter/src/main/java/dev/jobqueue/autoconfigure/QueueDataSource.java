package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;

import dev.jobqueue.spring.JobQueueDataSource;

/**
 * Which {@code DataSource} the queue uses: the one qualified {@link JobQueueDataSource} if there is one,
 * else the application's (its primary one, when it has several).
 */
final class QueueDataSource {

	private QueueDataSource() {
	}

	static DataSource resolve(ObjectProvider<DataSource> queueDataSource, ObjectProvider<DataSource> dataSource) {
		DataSource resolved = queueDataSource.getIfAvailable(dataSource::getIfUnique);
		if (resolved == null) {
			throw new IllegalStateException("jobqueue needs one DataSource, and this application has several: mark "
					+ "one @Primary, or qualify the queue's with @JobQueueDataSource");
		}
		return resolved;
	}
}
