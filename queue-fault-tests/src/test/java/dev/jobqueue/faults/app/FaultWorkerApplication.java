package dev.jobqueue.faults.app;

import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

import com.zaxxer.hikari.HikariDataSource;

/**
 * The worker the fault tests start as separate JVMs: a plain Spring Boot application with the starter and
 * the {@link ProbeJobs probe} handlers. Its connections carry {@code fault-worker-<pid>} as their
 * application name (on SQLite, as {@link SqliteWriterName}; on MySQL and MariaDB, as {@link MysqlWriterName}),
 * so that the audit trigger records which process wrote each change of a job.
 */
@SpringBootApplication
public class FaultWorkerApplication {

	public static void main(String[] args) throws InterruptedException {
		SpringApplication application = new SpringApplication(FaultWorkerApplication.class);
		application.setDefaultProperties(Map.of("spring.datasource.hikari.data-source-properties.ApplicationName",
				applicationName(ProcessHandle.current().pid())));
		application.run(args);
		// With the time this JVM's clock reads, which a scenario may have set off (SkewedClock).
		System.out.println("fault worker " + ProcessHandle.current().pid() + " started at " + Instant.now());
		// The queue's threads are daemons; this one keeps the JVM up until it is killed or told to stop
		// (SIGTERM runs Spring's shutdown hook, which stops the workers gracefully).
		new CountDownLatch(1).await();
	}

	@Bean
	static BeanPostProcessor sqliteWriterName() {
		String name = applicationName(ProcessHandle.current().pid());
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return bean instanceof HikariDataSource pool && pool.getJdbcUrl().startsWith("jdbc:sqlite:")
						? new SqliteWriterName(pool, name) : bean;
			}
		};
	}

	/**
	 * On MySQL and MariaDB, every connection of the pool registers this process's name as it opens; set on
	 * the pool before its first connection, as the runtime's own pool, if it builds one, copies it from there.
	 */
	@Bean
	static BeanPostProcessor mysqlWriterName() {
		String name = applicationName(ProcessHandle.current().pid());
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				if (bean instanceof HikariDataSource pool && MysqlWriterName.isMysql(pool.getJdbcUrl())) {
					pool.setConnectionInitSql(MysqlWriterName.initSql(name));
				}
				return bean;
			}
		};
	}

	/**
	 * {@code fault.claim-answer-loss} (a share, 0 by default): the answers of that share of the claims are
	 * lost after the claim committed ({@link ClaimAnswerLoss}). PostgreSQL and MySQL only: SQLite has no network.
	 */
	@Bean
	static BeanPostProcessor claimAnswerLoss(Environment environment) {
		double share = environment.getProperty("fault.claim-answer-loss", Double.class, 0.0);
		return new BeanPostProcessor() {
			@Override
			public Object postProcessAfterInitialization(Object bean, String beanName) {
				return share > 0 && bean instanceof HikariDataSource pool && !pool.getJdbcUrl().startsWith("jdbc:sqlite:")
						? ClaimAnswerLoss.losing(pool, share) : bean;
			}
		};
	}

	/** The application name of the worker with process id {@code pid}'s connections. */
	public static String applicationName(long pid) {
		return "fault-worker-" + pid;
	}
}
