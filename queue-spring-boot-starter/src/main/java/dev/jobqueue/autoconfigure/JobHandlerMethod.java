package dev.jobqueue.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Parameter;
import java.lang.reflect.Type;
import java.time.DateTimeException;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.stream.Stream;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.jobqueue.HandlerOptions;
import dev.jobqueue.JobContext;
import dev.jobqueue.JobKind;
import dev.jobqueue.RetryPolicy;
import dev.jobqueue.Schedule;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.spring.JobHandler;

/**
 * One {@link JobHandler} method turned into a handler definition: its signature checked, its payload type
 * read from its parameter (generics kept), its retry attributes laid over the configured policy. Every
 * problem fails with a message that names the bean and the method.
 */
final class JobHandlerMethod {

	private final Object bean;

	private final Method method;

	private final String description;

	private int payloadIndex = -1;

	private int contextIndex = -1;

	private JobHandlerMethod(String beanName, Object bean, Method method) {
		this.bean = bean;
		this.method = method;
		this.description = "bean '" + beanName + "' method " + ClassUtils.getQualifiedMethodName(method)
				+ parameterList(method);
	}

	/** The definition to register for {@code method} of bean {@code beanName}. */
	static JobHandlerDefinition definition(String beanName, Object bean, Method method, JobHandler annotation,
			RetryPolicy defaults) {
		JobHandlerMethod handler = new JobHandlerMethod(beanName, bean, method);
		handler.findParameters(!annotation.cron().isEmpty() || !annotation.every().isEmpty());
		ReflectionUtils.makeAccessible(method);
		String kind = handler.kind(annotation.kind());
		// A recurring job's handler may take no payload: its jobs carry JSON null, bound as Void.
		Type payloadType = handler.payloadIndex >= 0 ? method.getGenericParameterTypes()[handler.payloadIndex]
				: Void.class;
		return new JobHandlerDefinition(kind, handler.queue(annotation.queue()), payloadType,
				handler.retryPolicy(annotation, defaults), annotation.transactional(), handler::invoke,
				handler.description, handler.timeout(annotation.timeout()), handler.version(annotation.version()),
				handler.payloadNullable(), handler.keyLimits(annotation));
	}

	/** The annotation's kind, or else the one the payload type names with {@link JobKind}. */
	private String kind(String declared) {
		if (!declared.isBlank() || payloadIndex < 0) {
			return require(declared, "kind", "Name the kind of job the method handles: @JobHandler(\"send-mail\").");
		}
		Class<?> payloadType = method.getParameterTypes()[payloadIndex];
		JobKind kind = payloadType.getAnnotation(JobKind.class);
		if (kind == null || kind.value().isBlank()) {
			throw invalid("names no kind, and its payload type " + payloadType.getSimpleName() + " names none with "
					+ "@JobKind", "Name the kind of job the method handles: @JobHandler(\"send-mail\"), or annotate the "
					+ "payload type, a JobArgs, with it: @JobKind(\"send-mail\") record " + payloadType.getSimpleName()
					+ "(…) implements JobArgs.", null);
		}
		return kind.value();
	}

	/**
	 * Whether the payload parameter carries an annotation named {@code Nullable}, from whichever package:
	 * Spring's, JSpecify's, javax.annotation's and Jakarta's all say the same, and the starter depends on
	 * none of them but Spring's. On the parameter or on its type (JSpecify's is a type annotation). A
	 * recurring job's handler without a payload parameter takes the null its jobs carry.
	 */
	private boolean payloadNullable() {
		if (payloadIndex < 0) {
			return true;
		}
		Parameter parameter = method.getParameters()[payloadIndex];
		return Stream.concat(Arrays.stream(parameter.getAnnotations()),
				Arrays.stream(parameter.getAnnotatedType().getAnnotations()))
			.anyMatch(annotation -> annotation.annotationType().getSimpleName().equals("Nullable"));
	}

	/**
	 * The recurring job the method declares ({@code cron} or {@code every}), named after its kind (the
	 * annotation's, or its payload type's {@code @JobKind}), if any.
	 */
	static Optional<ScheduleDefinition> schedule(String beanName, Method method, JobHandler annotation, String kind) {
		JobHandlerMethod handler = new JobHandlerMethod(beanName, null, method);
		Optional<Schedule> schedule;
		try {
			schedule = JobHandlerSchedule.of(annotation);
		}
		catch (IllegalArgumentException | DateTimeException ex) {
			throw handler.invalid("has an invalid schedule: " + ex.getMessage(), "Give it a cron expression of six "
					+ "fields, seconds first (or a macro such as @daily), with a zone such as Europe/Paris, or an "
					+ "interval of at least 1s in every; not both.", ex);
		}
		return schedule.map(timing -> new ScheduleDefinition(kind, timing.kind(kind), handler.description));
	}

	private void findParameters(boolean payloadOptional) {
		Class<?>[] types = method.getParameterTypes();
		for (int i = 0; i < types.length; i++) {
			if (!JobContext.class.equals(types[i])) {
				if (payloadIndex >= 0) {
					throw invalidSignature("has two payload parameters (" + types[payloadIndex].getSimpleName() + " and "
							+ types[i].getSimpleName() + ")");
				}
				payloadIndex = i;
			}
			else if (contextIndex >= 0) {
				throw invalidSignature("declares two JobContext parameters");
			}
			else {
				contextIndex = i;
			}
		}
		if (payloadIndex < 0 && !payloadOptional) {
			throw invalidSignature("has no payload parameter");
		}
	}

	private JobQueueStartupException invalidSignature(String problem) {
		return invalid(problem + "; a handler takes one payload parameter and, optionally, a JobContext",
				"Give the method one payload parameter, the type the job's JSON is read into, and optionally a "
						+ "JobContext parameter.",
				null);
	}

	private String require(String value, String attribute, String action) {
		if (value.isBlank()) {
			throw invalid("names no " + attribute, action, null);
		}
		return value;
	}

	private String queue(String queue) {
		try {
			return HandlerOptions.defaults()
				.queue(require(queue, "queue", "Name a queue, or leave the attribute out for the default queue."))
				.queue();
		}
		catch (IllegalArgumentException ex) {
			throw invalid("names an invalid queue: " + ex.getMessage(),
					"Name the queue with 1 to 100 letters, digits, _, . or -, or leave the attribute out for the "
							+ "default queue.", ex);
		}
	}

	private JobQueueStartupException invalid(String problem, String action, Exception cause) {
		return new JobQueueStartupException("@JobHandler " + description + " " + problem, action, cause);
	}

	/** The handler's own policy, or null to take the runtime's default when it sets no retry attribute. */
	private RetryPolicy retryPolicy(JobHandler annotation, RetryPolicy defaults) {
		if (annotation.maxAttempts() <= 0 && annotation.initialBackoff().isEmpty() && annotation.maxBackoff().isEmpty()
				&& annotation.multiplier() <= 0 && annotation.jitter() < 0) {
			return null;
		}
		try {
			return new RetryPolicy(annotation.maxAttempts() > 0 ? annotation.maxAttempts() : defaults.maxAttempts(),
					duration(annotation.initialBackoff(), defaults.initialBackoff()),
					duration(annotation.maxBackoff(), defaults.maxBackoff()),
					annotation.multiplier() > 0 ? annotation.multiplier() : defaults.multiplier(),
					annotation.jitter() >= 0 ? annotation.jitter() : defaults.jitter());
		}
		catch (IllegalArgumentException ex) {
			throw invalid("has an invalid retry setting: " + ex.getMessage(),
					"Fix the attribute, or leave it out to take its jobqueue.retry.* property.", ex);
		}
	}

	/** The handler's own timeout, or null to take the runtime's default. */
	private Duration timeout(String text) {
		if (text.isEmpty()) {
			return null;
		}
		try {
			Duration timeout = DurationStyle.detectAndParse(text);
			if (timeout.isNegative() || timeout.isZero()) {
				throw new IllegalArgumentException("a timeout must be positive");
			}
			return timeout;
		}
		catch (IllegalArgumentException ex) {
			throw invalid("has an invalid timeout '" + text + "': " + ex.getMessage(),
					"Give a positive duration, such as \"30s\" or \"5m\", or leave timeout out to take "
							+ "jobqueue.default-timeout.",
					ex);
		}
	}

	private KeyLimits keyLimits(JobHandler annotation) {
		HandlerOptions options = HandlerOptions.defaults();
		try {
			options = rateLimit(annotation.rateLimit(), options
				.concurrencyKeyLimit(annotation.concurrencyKeyLimit())
				.deadJobBlocksKey(annotation.deadJobBlocksKey()));
			if (annotation.clusterConcurrency() != 0) {
				options = options.clusterConcurrency(annotation.clusterConcurrency());
			}
		}
		catch (IllegalArgumentException ex) {
			throw invalid("has invalid concurrency options: " + ex.getMessage(),
					"Give concurrencyKeyLimit 1 or more, clusterConcurrency 1 or more (0: none), rateLimit as starts "
							+ "per period such as \"10/1s\"; clusterConcurrency and rateLimit exclude each other.", ex);
		}
		return new KeyLimits(options.concurrencyKeyLimit(), options.deadJobBlocksKey(), options.clusterConcurrency(),
				options.rateStarts(), options.ratePeriod());
	}

	/** {@code "10/1s"}: ten starts per second. */
	private static HandlerOptions rateLimit(String text, HandlerOptions options) {
		if (text.isEmpty()) {
			return options;
		}
		int slash = text.indexOf('/');
		if (slash < 0) {
			throw new IllegalArgumentException("rateLimit '" + text + "' is not starts/period, such as 10/1s");
		}
		int starts;
		try {
			starts = Integer.parseInt(text.substring(0, slash).trim());
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("rateLimit '" + text + "' does not start with a number of starts");
		}
		return options.rateLimit(starts, DurationStyle.detectAndParse(text.substring(slash + 1).trim()));
	}

	private int version(int version) {
		if (version < JobHandlerDefinition.FIRST_VERSION) {
			throw invalid("has an invalid version " + version + ": a payload version is 1 or more",
					"Give version 1 or more: the version of the payload's shape the method reads.", null);
		}
		return version;
	}

	private static Duration duration(String text, Duration fallback) {
		return text.isEmpty() ? fallback : DurationStyle.detectAndParse(text);
	}

	private Object invoke(Object payload, JobContext context) throws Exception {
		Object[] arguments = new Object[method.getParameterCount()];
		if (payloadIndex >= 0) {
			arguments[payloadIndex] = payload;
		}
		if (contextIndex >= 0) {
			arguments[contextIndex] = context;
		}
		try {
			return method.invoke(bean, arguments);
		}
		catch (InvocationTargetException ex) {
			// What the handler threw is the failure to record and retry, not the reflection wrapper.
			if (ex.getTargetException() instanceof Exception thrown) {
				throw thrown;
			}
			if (ex.getTargetException() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}

	static String parameterList(Method method) {
		StringBuilder list = new StringBuilder("(");
		for (Class<?> type : method.getParameterTypes()) {
			list.append(list.length() > 1 ? ", " : "").append(type.getSimpleName());
		}
		return list.append(')').toString();
	}
}
