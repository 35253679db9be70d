package dev.jobqueue.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.PropertyMapping;

/**
 * Adds the queue and the {@link JobQueueTester} to a test slice, such as {@code @JdbcTest} or
 * {@code @DataJpaTest}, and switches the queue's background workers off, so that jobs run only when the
 * test {@link JobQueueTester#drain() drains} them. On a {@code @SpringBootTest}, whose context has the
 * queue already, it only switches the workers off.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration
@PropertyMapping("jobqueue.worker")
public @interface AutoConfigureJobQueue {

	/** Whether the queue's background workers run ({@code jobqueue.worker.enabled}); off by default. */
	@PropertyMapping("enabled")
	boolean workers() default false;
}
