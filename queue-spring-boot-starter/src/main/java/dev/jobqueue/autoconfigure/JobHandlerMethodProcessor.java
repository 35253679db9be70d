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
		registry.verifyUpcasters();
		ScheduledJobs.resolve(registry, json, defaultRetryPolicy);
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
		upcasters.forEach((method, annotation) -> registry.registerUpcaster(JobPayloadUpcasterMethod
			.definition(beanName, bean, AopUtils.selectInvocableMethod(method, bean.getClass()), annotation)));
	}

	private static <A extends Annotation> Map<Method, A> annotatedMethods(Class<?> type, Class<A> annotationType) {
		if (!AnnotationUtils.isCandidateClass(type, annotationType)) {
			return Map.of();
		}
		MethodIntrospector.MetadataLookup<A> lookup = method -> AnnotatedElementUtils.findMergedAnnotation(method,
				annotationType);
		return MethodIntrospector.selectMethods(type, lookup);
	}

	private void register(String beanName, Object bean, Method method, JobHandler annotation) {
		Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
		JobHandlerDefinition definition = JobHandlerMethod.definition(beanName, bean, invocable, annotation,
				defaultRetryPolicy);
		registry.register(definition);
		JobHandlerMethod.schedule(beanName, invocable, annotation).ifPresent(registry::registerSchedule);
		if (!workedQueues.isEmpty() && !workedQueues.contains(definition.queue())) {
			log.warn("Jobs of kind '{}' go to queue '{}', which this node does not work (jobqueue.queues has {}); "
					+ "they run only on nodes that do", definition.kind(), definition.queue(), workedQueues);
		}
		else {
			log.debug("Registered job handler {} for kind '{}'", definition.description(), definition.kind());
		}
	}
}
