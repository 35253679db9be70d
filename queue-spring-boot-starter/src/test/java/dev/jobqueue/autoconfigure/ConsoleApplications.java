package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.annotation.web.configuration.EnableWebSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.spring.JobHandler;

/** The applications the console tests run on a real server, with a handler that always fails. */
final class ConsoleApplications {

	/** A payload and error a page must print as text, never run. */
	static final String HOSTILE_CARD = "<script>alert('card')</script>";

	private ConsoleApplications() {
	}

	static ConfigurableApplicationContext start(Class<?> application, String schema, String... properties) {
		return new SpringApplicationBuilder(application).web(WebApplicationType.SERVLET)
			.properties("spring.datasource.url=" + PostgresSchemas.fresh(schema), "server.port=0",
					"jobqueue.console.enabled=true", "jobqueue.retry.max-attempts=2",
					"jobqueue.retry.initial-backoff=10ms", "jobqueue.retry.max-backoff=10ms",
					"jobqueue.poll-interval=100ms")
			.properties(properties)
			.run();
	}

	/** Three jobs that fail both their attempts, then a paused queue, so that a retried job stays ready. */
	static List<Long> killThreeJobs(JobQueue queue) {
		List<Long> ids = List.of(queue.enqueue("charge-card", new Charge(HOSTILE_CARD)),
				queue.enqueue("charge-card", new Charge("4111")), queue.enqueue("charge-card", new Charge("5500")));
		ids.forEach(id -> assertThat(queue.await(id, Duration.ofSeconds(20)).state()).isEqualTo(JobState.dead));
		queue.pause("default");
		return ids;
	}

	static String base(ConfigurableApplicationContext app) {
		return "http://localhost:" + app.getEnvironment().getProperty("local.server.port") + "/jobqueue";
	}

	static HttpResponse<String> post(URI uri, String form) throws Exception {
		return HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(uri)
				.header("Content-Type", "application/x-www-form-urlencoded")
				.POST(HttpRequest.BodyPublishers.ofString(form))
				.build(), HttpResponse.BodyHandlers.ofString());
	}

	record Charge(String card) {
	}

	static class Charges {

		@JobHandler("charge-card")
		void charge(Charge charge, JobContext context) {
			context.log("charging " + charge.card());
			context.progress(1, 2);
			throw new IllegalStateException("card declined: " + charge.card());
		}

		/** A job that runs until it is cancelled, for the console's cancel of a running job; at most 30 s. */
		@JobHandler("export")
		void export(Charge charge, JobContext context) throws InterruptedException {
			long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
			while (!context.isCancelled() && System.nanoTime() < until) {
				Thread.sleep(10);
			}
		}

		/** A recurring job, for the console's schedules page; its first fire time is hours away. */
		@JobHandler(kind = "nightly-report", cron = "0 0 2 * * *")
		void nightlyReport() {
		}
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Plain {

		@Bean
		Charges charges() {
			return new Charges();
		}
	}

	/**
	 * The console and the Actuator behind Spring Security as docs/operations/console.md tells a user to put them: the
	 * filter chain bean is the page's, name included; the user and the filter's registration stand in for what Boot's security starter provides.
	 */
	@SpringBootConfiguration
	@EnableAutoConfiguration
	@EnableWebSecurity
	static class Secured {

		@Bean
		Charges charges() {
			return new Charges();
		}

		// docs/operations/console.md's bean, as written there.
		@Bean
		SecurityFilterChain jobQueueConsole(HttpSecurity http) throws Exception {
			return http.securityMatcher("/jobqueue/**", "/actuator/**")
				.authorizeHttpRequests(requests -> requests
					.requestMatchers("/actuator/health/**").permitAll()
					.anyRequest().hasRole("OPERATOR"))
				.httpBasic(Customizer.withDefaults())
				.build();
		}

		@Bean
		UserDetailsService operators() {
			return new InMemoryUserDetailsManager(
					User.withUsername("ops").password("{noop}night-shift").roles("OPERATOR").build());
		}

		@Bean
		DelegatingFilterProxyRegistrationBean securityFilterChainRegistration() {
			return new DelegatingFilterProxyRegistrationBean("springSecurityFilterChain");
		}
	}
}
