package dev.jobqueue.autoconfigure;

import java.lang.annotation.Annotation;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.Set;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;

import dev.jobqueue.RetryPolicy;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.ScheduledJobs;
import dev.jobqueue.runtime.UpcasterDefinition;
import dev.jobqueue.spring.JobHandler;
import dev.jobqueue.spring.JobPayloadUpcaster;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds the {@link JobHandler} and {@link JobPayloadUpcaster} methods of every bean once all singletons
 * exist, the way {@code @EventListener} methods are found, and registers them with the schedules they
 * declare. It runs before any lifecycle bean starts, so the workers never see a kind without its handler; a
 * bad method, a duplicate kind, an upcaster chain that does not lead to its handler, or a schedule (declared
 * here or in {@code jobqueue.schedules}) that does not fit its handler fails the startup.
 */
final class JobHandlerMethodProcessor implements SmartInitializingSingleton, BeanFactoryAware {

	private static final Logger log = LoggerFactory.getLogger(JobHandlerMethodProcessor.class);

	private static final String UPCASTER_CHAIN = "Give each kind's upcasters one method per version, from the oldest "
			+ "version jobs may still have up to the version below its @JobHandler's, with no gap, and only for "
			+ "kinds a @JobHandler of this application serves.";

	private static final String SCHEDULE_FIT = "Give each schedule a kind a @JobHandler here serves (or one listed in "
			+ "jobqueue.external-kinds), and a payload that its handler's payload type reads.";

	private final HandlerRegistry registry;

	private final RetryPolicy defaultRetryPolicy;

	/** The queues this node works, or none when it only enqueues. */
	private final Set<String> workedQueues;

	/** What schedules' payloads are written with, as the workers will: to check that they fit. */
	private final JsonMapper json;

	private ConfigurableListableBeanFactory beanFactory;

	JobHandlerMethodProcessor(HandlerRegistry registry, RetryPolicy defaultRetryPolicy, Set<String> workedQueues,
			JsonMapper json) {
		this.registry = registry;
		this.defaultRetryPolicy = defaultRetryPolicy;
		this.workedQueues = workedQueues;
		this.json = json;
	}

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String beanName : beanFactory.getBeanNamesForType(Object.class, false, false)) {
			if (!ScopedProxyUtils.isScopedTarget(beanName)) {
				processBean(beanName);
			}
		}
		requireNoServedKindExternal();
		declare(registry::verifyUpcasters, UPCASTER_CHAIN);
		declare(() -> ScheduledJobs.resolve(registry, json, defaultRetryPolicy), SCHEDULE_FIT);
	}

	/**
	 * A kind is external or served here, not both: this node would claim the jobs of a kind it says it never
	 * claims.
	 */
	private void requireNoServedKindExternal() {
		for (JobHandlerDefinition handler : registry.all()) {
			if (registry.isExternal(handler.kind())) {
				throw new JobQueueStartupException("jobqueue.external-kinds names '" + handler.kind()
						+ "', which this application serves: " + handler.description()
						+ ". An external kind is one that other applications handle and this node never claims.",
						"Remove '" + handler.kind() + "' from jobqueue.external-kinds, or remove its @JobHandler.",
						null);
			}
		}
	}

	private void processBean(String beanName) {
		Class<?> type = AutoProxyUtils.determineTargetClass(beanFactory, beanName);
		if (type == null) {
			return;
		}
		Map<Method, JobHandler> handlers = annotatedMethods(type, JobHandler.class);
		Map<Method, JobPayloadUpcaster> upcasters = annotatedMethods(type, JobPayloadUpcaster.class);
		if (handlers.isEmpty() && upcasters.isEmpty()) {
			return;
		}
		Object bean = beanFactory.getBean(beanName);
		handlers.forEach((method, annotation) -> register(beanName, bean, method, annotation));
		upcasters.forEach((method, annotation) -> {
			UpcasterDefinition upcaster = JobPayloadUpcasterMethod.definition(beanName, bean,
					AopUtils.selectInvocableMethod(method, bean.getClass()), annotation);
			declare(() -> registry.registerUpcaster(upcaster), UPCASTER_CHAIN);
		});
	}

	static <A extends Annotation> Map<Method, A> annotatedMethods(Class<?> type, Class<A> annotationType) {
		if (!AnnotationUtils.isCandidateClass(type, annotationType)) {
			return Map.of();
		}
		MethodIntrospector.MetadataLookup<A> lookup = method -> AnnotatedElementUtils.findMergedAnnotation(method,
				annotationType);
		return MethodIntrospector.selectMethods(type, lookup);
	}

	/**
	 * Runs a registration of the core's registry, whose refusals (a duplicate kind, a broken upcaster chain)
	 * are declaration mistakes: reported with {@code action}.
	 */
	private static void declare(Runnable registration, String action) {
		try {
			registration.run();
		}
		catch (IllegalStateException ex) {
			throw new JobQueueStartupException(ex.getMessage(), action, ex);
		}
	}

	private void register(String beanName, Object bean, Method method, JobHandler annotation) {
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		JobHandlerDefinition definition = JobHandlerMethod.definition(beanName, bean, invocable, annotation,
				defaultRetryPolicy);
		declare(() -> registry.register(definition),
				"Give each kind one @JobHandler method: rename the kind of one of them, or remove one.");
		JobHandlerMethod.schedule(beanName, invocable, annotation, definition.kind())
			.ifPresent(schedule -> declare(() -> registry.registerSchedule(schedule),
					"Give each schedule its own name: a schedule on a handler is named after its kind."));
		if (!workedQueues.isEmpty() && !workedQueues.contains(definition.queue())) {
			log.warn("Jobs of kind '{}' go to queue '{}', which this node does not work (jobqueue.queues has {}); "
					+ "they run only on nodes that do", definition.kind(), definition.queue(), workedQueues);
		}
		else {
			log.debug("Registered job handler {} for kind '{}'", definition.description(), definition.kind());
		}
	}
}
