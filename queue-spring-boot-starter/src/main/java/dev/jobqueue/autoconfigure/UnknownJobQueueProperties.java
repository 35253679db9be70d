package dev.jobqueue.autoconfigure;

import java.util.Map;
import java.util.TreeMap;

import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.context.properties.source.UnboundElementsSourceFilter;
import org.springframework.core.env.Environment;

/**
 * Fails the startup on a property under {@code jobqueue.} that nothing binds ({@link JobQueuePropertyNames}), naming
 * it, where it was set, and the nearest property there is: a misspelled name would otherwise be ignored, and its
 * setting with it. Runs before any bean is created, so nothing has opened a connection yet.
 *
 * <p>Environment variables and system properties are not read, as Spring Boot's own check of unknown fields does not
 * read them: they hold what other programs set under the same prefix (CI's {@code JOBQUEUE_TEST_…}). Their
 * values bind as ever.
 */
final class UnknownJobQueueProperties implements BeanFactoryPostProcessor {

	private static final UnboundElementsSourceFilter CHECKED_SOURCES = new UnboundElementsSourceFilter();

	private final Environment environment;

	UnknownJobQueueProperties(Environment environment) {
		this.environment = environment;
	}

	@Override
	public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) {
		Map<String, String> unknown = new TreeMap<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource names && CHECKED_SOURCES.apply(source)) {
				names.stream()
					.filter(JobQueuePropertyNames.ROOT::isAncestorOf)
					.filter(name -> !JobQueuePropertyNames.knows(name))
					.forEach(name -> unknown.putIfAbsent(name.toString(), problem(name, source)));
			}
		}
		if (!unknown.isEmpty()) {
			throw new JobQueueStartupException(String.join("\n", unknown.values()),
					"Correct the name of each, or remove it. The configuration reference lists every jobqueue property.",
					null);
		}
	}

	private static String problem(ConfigurationPropertyName name, ConfigurationPropertySource source) {
		ConfigurationProperty property = source.getConfigurationProperty(name);
		String origin = property != null && property.getOrigin() != null ? " (" + property.getOrigin() + ")" : "";
		return name + " is not a jobqueue property; did you mean " + JobQueuePropertyNames.nearest(name) + "?"
				+ origin;
	}
}
