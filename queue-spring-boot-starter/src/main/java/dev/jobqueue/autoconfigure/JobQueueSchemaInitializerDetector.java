package dev.jobqueue.autoconfigure;

import java.util.Set;

import org.springframework.boot.sql.init.dependency.AbstractBeansOfTypeDatabaseInitializerDetector;

/**
 * Makes the queue's schema initializer a database initializer for Spring Boot, so that the beans which
 * depend on database initialization (the queue, the workers, the application's JDBC templates) wait for
 * it, and orders it after the application's own schema tools.
 */
final class JobQueueSchemaInitializerDetector extends AbstractBeansOfTypeDatabaseInitializerDetector {

	/**
	 * After Flyway's and Liquibase's detectors (order 1). Their first migration refuses a schema that holds
	 * tables but no history of theirs; ours accepts one. So on a new database the application's migrations
	 * run first, and ours then go beside them.
	 */
	static final int ORDER = 10;

	@Override
	protected Set<Class<?>> getDatabaseInitializerBeanTypes() {
		return Set.of(JobQueueSchemaInitializer.class);
	}

	@Override
	public int getOrder() {
		return ORDER;
	}
}
