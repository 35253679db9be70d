package dev.jobqueue.spring;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.core.annotation.AliasFor;

import dev.jobqueue.RuntimeSettings;
import dev.jobqueue.Schedule;

/**
 * Marks a bean method as the handler of one job kind. The method's one non-{@link dev.jobqueue.JobContext}
 * parameter is the payload: the job's JSON is bound to its declared type (records and generic types
 * welcome). A {@code JobContext} parameter is optional. What the method returns is stored as the job's
 * result, in JSON; a thrown exception fails the attempt, to be retried by the handler's policy. An enqueue
 * on this node checks its payload against the parameter's type; a {@code null} payload is refused unless
 * the parameter is annotated with an annotation named {@code Nullable} (Spring's, JSpecify's, javax's or
 * any other package's).
 *
 * <pre>{@code
 * @JobHandler(kind = "send-welcome-email", queue = "mail", maxAttempts = 5, initialBackoff = "10s")
 * void sendWelcomeEmail(WelcomeEmail email, JobContext context) { … }
 *
 * @JobHandler // the kind is SendMail's @JobKind
 * void sendMail(SendMail mail) { … }
 * }</pre>
 *
 * Handlers are discovered once every singleton exists; a method without a payload parameter (unless it is
 * a recurring job: {@link #cron()}, {@link #every()}), with two, or declaring a kind another handler
 * declares fails the startup, naming bean and method.
 * Retry attributes left at their defaults take {@code jobqueue.retry.*}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface JobHandler {

	/** Alias for {@link #kind()}. */
	@AliasFor("kind")
	String value() default "";

	/**
	 * The job kind this method handles, as given to {@code JobQueue.enqueue}. May be left out when the
	 * payload type is a {@link dev.jobqueue.JobArgs} annotated {@link dev.jobqueue.JobKind}: its kind is
	 * taken; otherwise required.
	 */
	@AliasFor("value")
	String kind() default "";

	/** The queue jobs of this kind go to unless the enqueue names another. */
	String queue() default RuntimeSettings.DEFAULT_QUEUE;

	/** Executions before a job is dead; zero or less takes {@code jobqueue.retry.max-attempts}. */
	int maxAttempts() default 0;

	/** Wait after the first failure, such as {@code 500ms} or {@code 10s}; empty takes the configured one. */
	String initialBackoff() default "";

	/** Longest wait between two attempts, such as {@code 1h}; empty takes the configured one. */
	String maxBackoff() default "";

	/** Growth of the wait per failed attempt (1.0 or more); zero or less takes the configured one. */
	double multiplier() default 0;

	/** Fraction of each wait taken off at random, in [0, 1); negative takes the configured one. */
	double jitter() default -1;

	/**
	 * Whether the method's database work and the job's completion commit in one transaction on the queue's
	 * {@code DataSource}: a handler that only writes to that database then takes effect exactly once.
	 */
	boolean transactional() default false;

	/**
	 * The version of the payload's shape that the payload parameter reads, 1 or more. Jobs enqueued here
	 * carry it; raise it when the payload type changes in a way old JSON no longer binds to, and declare a
	 * {@link JobPayloadUpcaster} from each older version whose jobs may still wait. A node never claims a
	 * job of a version newer than its handler's, so during a rolling deploy the old nodes leave the new
	 * jobs to the new ones.
	 */
	int version() default 1;

	/**
	 * How long one execution may run, such as {@code 5m}; past it the handler's thread is interrupted and
	 * the attempt fails ("timed out after …"), to be retried by the handler's policy. A handler that
	 * ignores the interrupt keeps its thread, but its lease is no longer renewed, so the job runs again
	 * elsewhere once the lease expires. Empty takes {@code jobqueue.default-timeout}.
	 */
	String timeout() default "";

	/**
	 * Makes the handler a recurring job: a cron expression (six fields, seconds first, or a macro such as
	 * {@code @daily}, as Spring's {@code CronExpression} reads them), evaluated in {@link #zone()}. Each fire
	 * time enqueues one job of this kind in the whole cluster, with a {@code null} payload; the method may
	 * then take no payload parameter. The schedule is named after the kind.
	 *
	 * <pre>{@code
	 * @JobHandler(kind = "nightly-report", cron = "0 0 2 * * *", zone = "Europe/Paris")
	 * void nightlyReport() { … }
	 * }</pre>
	 */
	String cron() default "";

	/** The time zone of {@link #cron()}, such as {@code Europe/Paris}; empty is UTC. */
	String zone() default "";

	/**
	 * Makes the handler a recurring job at a fixed interval, such as {@code 15m}, counted from the epoch (so
	 * {@code 15m} fires at :00, :15, :30, :45); at least one second. Exclusive with {@link #cron()}.
	 */
	String every() default "";

	/** What to do with fire times missed while no node was running; see {@link Schedule.Misfire}. */
	Schedule.Misfire misfire() default Schedule.Misfire.SKIP;

	/**
	 * How many jobs of one concurrency key ({@code EnqueueOptions.concurrencyKey}) of this kind may be ready
	 * or running at once in the whole cluster, 1 or more; 1 (the default) runs a key's jobs one after the
	 * other in enqueue order. {@code jobqueue.concurrency-key-limits} set for the key's prefix wins.
	 */
	int concurrencyKeyLimit() default 1;

	/**
	 * Whether a dead job keeps the slot of its concurrency key, so that the key's later jobs wait until an
	 * operator retries or cancels it; by default a dead job frees its slot and the key's next job runs.
	 */
	boolean deadJobBlocksKey() default false;

	/**
	 * At most this many jobs of this kind ready or running at once in the whole cluster; 0 (the default)
	 * sets no limit. Its jobs then share the concurrency key {@code kind:<kind>} and take no key of their own.
	 */
	int clusterConcurrency() default 0;

	/**
	 * At most so many starts per period, such as {@code "10/1s"} or {@code "100/1m"}, cluster-wide, per
	 * concurrency key: the job's own, else the kind's ({@code kind:<kind>}). Also caps how many of a key run
	 * at once at that number; excludes {@link #clusterConcurrency()}. Empty (the default): no rate.
	 */
	String rateLimit() default "";
}
