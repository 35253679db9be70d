package dev.jobqueue.autoconfigure;

import jakarta.servlet.Servlet;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

import dev.jobqueue.JobQueue;
import dev.jobqueue.store.JobStore;

/**
 * The operator's web console ({@code jobqueue.console.*}), in a servlet web application and only when
 * {@code jobqueue.console.enabled=true}: it shows payloads and errors, so it is never on by accident.
 */
@AutoConfiguration(after = JobQueueAutoConfiguration.class)
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass(Servlet.class)
@ConditionalOnBooleanProperty(name = "jobqueue.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty("jobqueue.console.enabled")
@ConditionalOnBean(JobQueue.class)
public final class JobQueueConsoleAutoConfiguration {

	private static final String SECURITY_FILTER_CHAIN = "org.springframework.security.web.SecurityFilterChain";

	@Bean
	@ConditionalOnMissingBean(name = "jobQueueConsoleServlet")
	ServletRegistrationBean<?> jobQueueConsoleServlet(JobQueue queue, JobStore store, JobQueueProperties properties,
			ListableBeanFactory beans) {
		JobQueueProperties.Console console = properties.getConsole();
		if (console.isWritesEnabled() && !console.isAllowUnsecuredWrites() && !secured(beans)) {
			throw new JobQueueStartupException("jobqueue.console.writes-enabled is true, but the application has no "
					+ "Spring Security filter chain: anyone who reaches the console's path could retry and cancel jobs, "
					+ "which only jobqueue.console.allow-unsecured-writes=true allows",
					"Protect the console with Spring Security (docs/operations/console.md), or set "
							+ "jobqueue.console.allow-unsecured-writes=true if its path is reachable only by operators",
					null);
		}
		ServletRegistrationBean<ConsoleServlet> registration = new ServletRegistrationBean<>(
				new ConsoleServlet(queue, store, console.isWritesEnabled(),
						new ConsoleTableHealth(console.getXminHeldWarning(), console.getDeadRowsWarning())),
				console.getPath() + "/*");
		registration.setName("jobQueueConsole");
		return registration;
	}

	/** Whether a Spring Security filter chain guards the application's requests (Boot's default one counts). */
	private static boolean secured(ListableBeanFactory beans) {
		ClassLoader loader = JobQueueConsoleAutoConfiguration.class.getClassLoader();
		return ClassUtils.isPresent(SECURITY_FILTER_CHAIN, loader) && beans
			.getBeanNamesForType(ClassUtils.resolveClassName(SECURITY_FILTER_CHAIN, loader), false, false).length > 0;
	}
}
