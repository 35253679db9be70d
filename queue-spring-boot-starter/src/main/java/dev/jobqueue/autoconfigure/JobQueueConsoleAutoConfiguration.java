package dev.jobqueue.autoconfigure;

import jakarta.servlet.Servlet;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

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

	@Bean
	@ConditionalOnMissingBean(name = "jobQueueConsole")
	ServletRegistrationBean<?> jobQueueConsole(JobQueue queue, JobStore store, JobQueueProperties properties) {
		JobQueueProperties.Console console = properties.getConsole();
		ServletRegistrationBean<ConsoleServlet> registration = new ServletRegistrationBean<>(
				new ConsoleServlet(queue, store, console.isWritesEnabled()), console.getPath() + "/*");
		registration.setName("jobQueueConsole");
		return registration;
	}
}
