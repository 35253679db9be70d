package dev.jobqueue.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.jdbc.autoconfigure.DataSourceTransactionManagerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobQueue;
import dev.jobqueue.Schedule;
import dev.jobqueue.ScheduleStatus;
import dev.jobqueue.runtime.HandlerRegistry;
import dev.jobqueue.runtime.ScheduleDefinition;
import dev.jobqueue.spring.JobHandler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

/** Recurring jobs declared on handlers and in configuration: bad ones fail the startup, good ones fire. */
class JobQueueScheduleTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(JobQueueAutoConfiguration.class))
		.withUserConfiguration(StubStoreConfiguration.class, ReportHandlers.class)
		.withPropertyValues("jobqueue.initialize-schema=never", "jobqueue.worker.enabled=false");

	@Test
	void anInvalidCronExpressionFailsTheStartupNamingTheProperty() {
		assertStartupFails("jobqueue.schedules.nightly.cron: cron '0 0 25 * * *' is invalid",
				"jobqueue.schedules.nightly.kind=report", "jobqueue.schedules.nightly.cron=0 0 25 * * *");
	}

	@Test
	void anUnknownZoneFailsTheStartupNamingTheProperty() {
		assertStartupFails("jobqueue.schedules.nightly.zone 'Europe/Atlantis' is not a time zone",
				"jobqueue.schedules.nightly.kind=report", "jobqueue.schedules.nightly.cron=0 0 2 * * *",
				"jobqueue.schedules.nightly.zone=Europe/Atlantis");
	}

	@Test
	void anIntervalOfZeroOrLessFailsTheStartupNamingTheProperty() {
		assertStartupFails("jobqueue.schedules.tick.every: every must be a positive duration, was PT0S",
				"jobqueue.schedules.tick.kind=report", "jobqueue.schedules.tick.every=0s");
		assertStartupFails("jobqueue.schedules.tick.every: every must be a positive duration, was PT-5S",
				"jobqueue.schedules.tick.kind=report", "jobqueue.schedules.tick.every=-5s");
	}

	@Test
	void anIntervalWithoutAUnitFailsTheStartupAskingForOne() {
		assertStartupFails("jobqueue.schedules.tick.every: '5' has no unit; write it with one, such as 5s or 5m",
				"jobqueue.schedules.tick.kind=report", "jobqueue.schedules.tick.every=5");
	}

	@Test
	void aScheduleWithNeitherOrBothTimingsFailsTheStartupNamingTheProperties() {
		assertStartupFails("jobqueue.schedules.tick.cron or jobqueue.schedules.tick.every must be set, and not both",
				"jobqueue.schedules.tick.kind=report");
		assertStartupFails("jobqueue.schedules.tick.cron or jobqueue.schedules.tick.every must be set, and not both",
				"jobqueue.schedules.tick.kind=report", "jobqueue.schedules.tick.every=1m",
				"jobqueue.schedules.tick.cron=0 * * * * *");
	}

	@Test
	void aScheduleForAKindNoHandlerServesFailsTheStartupNamingTheProperty() {
		assertStartupFails("Schedule 'nightly' (jobqueue.schedules.nightly) names kind 'repport', which no handler "
				+ "here serves (kinds: report, summary)", "jobqueue.schedules.nightly.kind=repport",
				"jobqueue.schedules.nightly.every=1h");
	}

	@Test
	void aPayloadThatDoesNotFitTheHandlerFailsTheStartupNamingThePropertyAndTheMethod() {
		assertStartupFails("Schedule 'nightly' (jobqueue.schedules.nightly) has a payload that does not fit bean "
				+ "'jobQueueScheduleTests.ReportHandlers' method " + ReportHandlers.class.getName() + ".report(Report)",
				"jobqueue.schedules.nightly.kind=report", "jobqueue.schedules.nightly.every=1h",
				"jobqueue.schedules.nightly.payload={\"days\": \"many\"}");
		assertStartupFails("jobqueue.schedules.nightly.payload is not JSON", "jobqueue.schedules.nightly.kind=report",
				"jobqueue.schedules.nightly.every=1h", "jobqueue.schedules.nightly.payload={days: 1");
	}

	@Test
	void anInvalidScheduleOnAHandlerFailsTheStartupNamingTheMethod() {
		assertStartupFails(BadSchedules.BadCron.class, ".cron() has an invalid schedule: cron '0 61 * * * *'");
		assertStartupFails(BadSchedules.BadZone.class, ".zone() has an invalid schedule: Unknown time-zone");
		assertStartupFails(BadSchedules.ZeroInterval.class,
				".zero() has an invalid schedule: every must be a positive duration, was PT0S");
		assertStartupFails(BadSchedules.Both.class, ".both() has an invalid schedule: cron and every are both set");
		assertStartupFails(BadSchedules.NoUnit.class,
				".noUnit() has an invalid schedule: '5' has no unit; write it with one, such as 5s or 5m");
	}

	@Test
	void aRecurringHandlerWhosePayloadIsNotNullableFailsTheStartupAsAnEnqueueOfNullWould() {
		runner.withBean("recurringReport", RecurringReport.class).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining("Schedule 'recurring-report'")
				.hasStackTraceContaining("has no payload, but")
				.hasStackTraceContaining("that is not declared nullable");
		});
	}

	@Test
	void aRecurringHandlerMayTakeNoPayloadItsScheduleIsNamedAfterItsKindAndAConfiguredOneTakesTheDefaults() {
		runner.withPropertyValues("jobqueue.schedules.weekly.kind=report", "jobqueue.schedules.weekly.cron=@weekly",
				"jobqueue.schedules.weekly.payload={\"days\": 7}", "jobqueue.schedules.weekly.misfire=once")
			.run(context -> {
				assertThat(context).hasNotFailed();
				List<ScheduleDefinition> schedules = List.copyOf(context.getBean(HandlerRegistry.class).schedules());
				assertThat(schedules).extracting(ScheduleDefinition::name).containsExactlyInAnyOrder("weekly", "summary");
				Schedule summary = schedules.stream().filter(s -> s.name().equals("summary")).findFirst().orElseThrow()
					.schedule();
				assertThat(summary.timing()).isEqualTo("cron 0 0 2 * * * Europe/Paris");
				assertThat(summary.misfire()).isEqualTo(Schedule.Misfire.ALL);
				Schedule weekly = schedules.stream().filter(s -> s.name().equals("weekly")).findFirst().orElseThrow()
					.schedule();
				assertThat(weekly.timing()).isEqualTo("cron @weekly UTC");
				assertThat(weekly.misfire()).isEqualTo(Schedule.Misfire.ONCE);
				assertThat(weekly.misfireThreshold()).isEqualTo(Schedule.DEFAULT_MISFIRE_THRESHOLD);
				assertThat(weekly.fallBack()).isEqualTo(Schedule.FallBack.ONCE);
				assertThat(weekly.priority()).isEqualTo(5);
				assertThat(weekly.enabled()).isTrue();
			});
	}

	@Test
	void aConfiguredScheduleMayFireTwiceOnTheFallBackDay() {
		runner.withPropertyValues("jobqueue.schedules.nightly.kind=report",
				"jobqueue.schedules.nightly.cron=0 30 2 * * *", "jobqueue.schedules.nightly.zone=Europe/Paris", "jobqueue.schedules.nightly.payload={\"days\": 1}",
				"jobqueue.schedules.nightly.fall-back=twice")
			.run(context -> assertThat(context.getBean(HandlerRegistry.class).schedules())
				.filteredOn(definition -> definition.name().equals("nightly"))
				.singleElement()
				.satisfies(definition -> assertThat(definition.schedule().fallBack())
					.isEqualTo(Schedule.FallBack.TWICE)));
	}

	@Test
	void schedulesOnAHandlerAndInConfigurationFireTheirJobsWhichTheEndpointAndTheMetricsShow() throws IOException {
		ticking().run(context -> {
			Ticks ticks = context.getBean(Ticks.class);
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(ticks.received).contains("from config").contains("on a handler"));
			assertThat(context.getBean(JobQueueEndpoint.class).overview().schedules())
				.extracting(ScheduleStatus::name, ScheduleStatus::timing)
				.containsExactly(tuple("configured", "every PT1S"), tuple("on-handler", "every PT1S"));
			assertThat(context.getBean(JobQueueEndpoint.class).overview().schedules())
				.allSatisfy(schedule -> assertThat(schedule.lastFireAt()).isBefore(schedule.nextFireAt()));
			assertThat(context.getBean(MeterRegistry.class).get("jobqueue.schedules.fired")
				.tags("schedule", "configured").counter().count()).isPositive();
		});
	}

	@Test
	void aScheduleAddedThroughTheQueueIsPausedTriggeredAndRemovedThroughTheEndpoint() throws IOException {
		ticking().run(context -> {
			JobQueueEndpoint endpoint = context.getBean(JobQueueEndpoint.class);
			context.getBean(JobQueue.class).schedules()
				.put("added", Schedule.cron("0 0 0 1 1 *").kind("tick").payload("added"));

			assertThat(endpoint.control("schedule", "added", "pause", null).getBody())
				.containsEntry("changed", true).containsEntry("paused", true);
			assertThat(endpoint.paused("schedule", "added").getBody()).containsEntry("paused", true);
			assertThat(endpoint.control("schedule", "added", "trigger", null).getBody()).containsKey("id");
			await().atMost(Duration.ofSeconds(20))
				.untilAsserted(() -> assertThat(context.getBean(Ticks.class).received).contains("added"));
			assertBadRequest(endpoint.control("schedule", "configured", "remove", null),
					"declared in code on this node");
			assertBadRequest(endpoint.control("schedule", "missing", "trigger", null), "no schedule 'missing'");
			assertBadRequest(endpoint.control("schedule", "added", "resize", 2), "for a schedule 'trigger'");
			assertThat(endpoint.overview().schedules()).filteredOn(ScheduleStatus::added).singleElement()
				.satisfies(status -> assertThat(status.pausedAt()).isNotNull());

			assertThat(endpoint.control("schedule", "added", "remove", null).getBody()).containsEntry("changed", true);
			assertThat(endpoint.overview().schedules()).extracting(ScheduleStatus::name)
				.containsExactly("configured", "on-handler");
		});
	}

	/** An application with schedules on a handler and in configuration, on a SQLite file of its own. */
	private static ApplicationContextRunner ticking() throws IOException {
		Path file = Files.createTempFile(Path.of("target"), "starter-schedule-test", ".db");
		return new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class,
					DataSourceTransactionManagerAutoConfiguration.class, JobQueueAutoConfiguration.class,
					JobQueueMetricsAutoConfiguration.class, JobQueueEndpointAutoConfiguration.class))
			.withUserConfiguration(Ticks.class)
			.withPropertyValues("spring.datasource.url=jdbc:sqlite:" + file, "jobqueue.poll-interval=100ms",
					"management.endpoints.web.exposure.include=jobqueue", "jobqueue.schedules.configured.kind=tick",
					"jobqueue.schedules.configured.every=1s", "jobqueue.schedules.configured.payload=\"from config\"");
	}

	private static void assertBadRequest(WebEndpointResponse<Map<String, Object>> answer, String error) {
		assertThat(answer.getStatus()).isEqualTo(WebEndpointResponse.STATUS_BAD_REQUEST);
		assertThat(answer.getBody()).hasEntrySatisfying("error", text -> assertThat(text).asString().contains(error));
	}

	private void assertStartupFails(String message, String... properties) {
		runner.withPropertyValues(properties).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasStackTraceContaining(message);
		});
	}

	/** Fails naming the bean and the method, whose description the message starts with. */
	private void assertStartupFails(Class<?> handlers, String problem) {
		runner.withBean("badSchedules", handlers).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure())
				.hasStackTraceContaining("@JobHandler bean 'badSchedules' method " + handlers.getName() + problem);
		});
	}

	record Report(int days) {
	}

	static class RecurringReport {

		@JobHandler(kind = "recurring-report", every = "1h")
		void report(Report report) {
		}
	}

	static class ReportHandlers {

		@JobHandler(kind = "report")
		void report(Report report) {
		}

		@JobHandler(kind = "summary", cron = "0 0 2 * * *", zone = "Europe/Paris", misfire = Schedule.Misfire.ALL)
		void summary(JobContext context) {
		}
	}

	static class BadSchedules {

		static class BadCron {

			@JobHandler(kind = "bad", cron = "0 61 * * * *")
			void cron() {
			}
		}

		static class BadZone {

			@JobHandler(kind = "bad", cron = "0 0 2 * * *", zone = "Mars/Olympus")
			void zone() {
			}
		}

		static class ZeroInterval {

			@JobHandler(kind = "bad", every = "0s")
			void zero() {
			}
		}

		static class Both {

			@JobHandler(kind = "bad", cron = "0 0 2 * * *", every = "1h")
			void both() {
			}
		}

		static class NoUnit {

			@JobHandler(kind = "bad", every = "5")
			void noUnit() {
			}
		}
	}

	@Configuration(proxyBeanMethods = false)
	static class Ticks {

		final List<String> received = new CopyOnWriteArrayList<>();

		@Bean
		MeterRegistry meterRegistry() {
			return new SimpleMeterRegistry();
		}

		@JobHandler(kind = "tick")
		void tick(String from) {
			received.add(from);
		}

		@JobHandler(kind = "on-handler", every = "1s")
		void onHandler() {
			received.add("on a handler");
		}
	}
}
