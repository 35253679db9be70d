package dev.jobqueue.autoconfigure;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

import dev.jobqueue.runtime.JobHandlerDefinition;
import dev.jobqueue.runtime.UpcasterDefinition;
import dev.jobqueue.spring.JobPayloadUpcaster;
import tools.jackson.databind.JsonNode;

/**
 * One {@link JobPayloadUpcaster} method turned into an upcaster definition: its signature and attributes
 * checked, each problem failing with a message that names the bean and the method.
 */
final class JobPayloadUpcasterMethod {

	private final Object bean;

	private final Method method;

	private final String description;

	private JobPayloadUpcasterMethod(String beanName, Object bean, Method method) {
		this.bean = bean;
		this.method = method;
		this.description = "bean '" + beanName + "' method " + ClassUtils.getQualifiedMethodName(method)
				+ JobHandlerMethod.parameterList(method);
	}

	/** The definition to register for {@code method} of bean {@code beanName}. */
	static UpcasterDefinition definition(String beanName, Object bean, Method method, JobPayloadUpcaster annotation) {
		JobPayloadUpcasterMethod upcaster = new JobPayloadUpcasterMethod(beanName, bean, method);
		upcaster.checkSignature();
		if (annotation.kind().isBlank()) {
			throw upcaster.invalid("names no kind", "Name the kind whose payloads the method upcasts.");
		}
		if (annotation.from() < JobHandlerDefinition.FIRST_VERSION) {
			throw upcaster.invalid("upcasts from version " + annotation.from() + "; payload versions start at 1",
					"Give from the version of the payloads the method reads, 1 or more.");
		}
		ReflectionUtils.makeAccessible(method);
		return new UpcasterDefinition(annotation.kind(), annotation.from(), upcaster::invoke, upcaster.description);
	}

	private void checkSignature() {
		Class<?>[] types = method.getParameterTypes();
		if (types.length != 1 || !types[0].isAssignableFrom(JsonNode.class)
				|| !JsonNode.class.isAssignableFrom(method.getReturnType())) {
			throw invalid("must take one JsonNode and return a JsonNode (" + JsonNode.class.getName()
					+ "): the payload of its version, and the payload of the next",
					"Declare the method as JsonNode name(JsonNode payload).");
		}
	}

	private JobQueueStartupException invalid(String problem, String action) {
		return new JobQueueStartupException("@JobPayloadUpcaster " + description + " " + problem, action, null);
	}

	private JsonNode invoke(JsonNode payload) throws Exception {
		try {
			return (JsonNode) method.invoke(bean, payload);
		}
		catch (InvocationTargetException ex) {
			// What the method threw fails the attempt, not the reflection wrapper.
			if (ex.getTargetException() instanceof Exception thrown) {
				throw thrown;
			}
			if (ex.getTargetException() instanceof Error error) {
				throw error;
			}
			throw ex;
		}
	}
}
