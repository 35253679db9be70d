package dev.jobqueue.spring;

import dev.jobqueue.RuntimeSettings;

/**
 * Changes the queue's runtime settings in code, after the {@code jobqueue.*} properties filled them and
 * before they are checked: a bean of this type is called once at startup, in {@code @Order}, like Spring
 * Boot's other {@code *Customizer}s. A {@link RuntimeSettings} bean of the application's own replaces the
 * properties and the customizers altogether.
 */
@FunctionalInterface
public interface JobQueueCustomizer {

	void customize(RuntimeSettings.Builder settings);
}
