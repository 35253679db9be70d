package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;

import dev.jobqueue.spring.JobHandler;

/**
 * The application has the starter but no {@code DataSource}, so {@link JobQueueAutoConfiguration} steps
 * aside: {@link JobHandler} methods then fail the startup with a report of what to add, rather than never run.
 * {@code jobqueue.enabled=false} turns this off too.
 */
@AutoConfiguration(after = { DataSourceAutoConfiguration.class, JobQueueAutoConfiguration.class })
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnMissingBean(DataSource.class)
public final class JobQueueNoDataSourceAutoConfiguration {

	@Bean
	static HandlersWithoutDataSourceCheck jobQueueHandlersWithoutDataSourceCheck() {
		return new HandlersWithoutDataSourceCheck();
	}
}
