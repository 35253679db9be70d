package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

/** When the console is served, and where: only when enabled, only in a servlet web application. */
class JobQueueConsoleAutoConfigurationTests {

	private final AutoConfigurations configurations = AutoConfigurations.of(JobQueueAutoConfiguration.class,
			JobQueueConsoleAutoConfiguration.class);

	private final WebApplicationContextRunner web = new WebApplicationContextRunner().withConfiguration(configurations)
		.withUserConfiguration(StubStoreConfiguration.class)
		.withPropertyValues("jobqueue.initialize-schema=never", "jobqueue.worker.enabled=false");

	@Test
	void theConsoleIsOffUnlessEnabled() {
		web.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("jobQueueConsoleServlet"));
	}

	@Test
	void anEnabledConsoleIsServedUnderItsPath() {
		web.withPropertyValues("jobqueue.console.enabled=true", "jobqueue.console.path=/ops/queue").run(context -> {
			ServletRegistrationBean<?> console = context.getBean("jobQueueConsoleServlet", ServletRegistrationBean.class);
			assertThat(console.getServlet()).isInstanceOf(ConsoleServlet.class);
			assertThat(console.getUrlMappings()).containsExactly("/ops/queue/*");
		});
	}

	@Test
	void anEnabledConsoleIsNotServedOutsideAWebApplication() {
		new ApplicationContextRunner().withConfiguration(configurations)
			.withUserConfiguration(StubStoreConfiguration.class)
			.withPropertyValues("jobqueue.initialize-schema=never", "jobqueue.worker.enabled=false",
					"jobqueue.console.enabled=true")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("jobQueueConsoleServlet"));
	}

	@Test
	void noQueueMeansNoConsole() {
		new WebApplicationContextRunner().withConfiguration(configurations)
			.withPropertyValues("jobqueue.console.enabled=true")
			.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean("jobQueueConsoleServlet"));
	}
}
