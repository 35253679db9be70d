package dev.jobqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.beans.factory.annotation.Qualifier;

/**
 * Qualifies the {@code DataSource} the queue should use when it is not the application's own, as
 * {@code @FlywayDataSource} does for Flyway. Declare it with {@code @Bean(defaultCandidate = false)} so
 * that Spring Boot still creates the application's main {@code DataSource}.
 *
 * <p>Enqueue joins the caller's transaction only when that transaction runs on the queue's
 * {@code DataSource}; with a separate one, a job is committed on its own.
 */
@Target({ ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER, ElementType.TYPE,
		ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Qualifier
public @interface JobQueueDataSource {
}
