package dev.jobqueue.autoconfigure;

import java.io.InputStream;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;

import dev.jobqueue.RetryPolicy;
import dev.jobqueue.RuntimeSettings;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

class JobQueuePropertiesTests {

	private final ApplicationContextRunner runner = new ApplicationContextRunner()
		.withUserConfiguration(PropertiesConfiguration.class);

	private final ApplicationContextRunner healthRunner = new ApplicationContextRunner()
		.withUserConfiguration(HealthPropertiesConfiguration.class);

	@Test
	void anEmptyEnvironmentBindsToTheDocumentedDefaultsWhichAreTheCoresDefaults() {
		runner.run(context -> {
			JobQueueProperties properties = context.getBean(JobQueueProperties.class);
			assertThat(properties.isEnabled()).isTrue();
			assertThat(properties.getDialect()).isNull();
			assertThat(properties.getInitializeSchema()).isEqualTo(DatabaseInitializationMode.ALWAYS);
			assertThat(properties.getWorker().isEnabled()).isTrue();
			assertThat(properties.getQueues()).containsOnlyKeys("default");
			assertThat(properties.getQueues().get("default").getConcurrency()).isEqualTo(8);
			assertThat(properties.getQueues().get("default").getPrefetch()).isZero();
			assertThat(properties.getExternalKinds()).isEmpty();
			assertThat(properties.isNotify()).isTrue();
			assertThat(properties.getPollInterval()).isEqualTo(Duration.ofSeconds(1));
			assertThat(properties.getLeaseDuration()).isEqualTo(Duration.ofSeconds(30));
			assertThat(properties.getHeartbeatInterval()).isEqualTo(Duration.ofSeconds(10));
			assertThat(properties.getReaperInterval()).isEqualTo(Duration.ofSeconds(5));
			assertThat(properties.getPruneInterval()).isEqualTo(Duration.ofMinutes(1));
			assertThat(properties.getVacuumInterval()).isEqualTo(Duration.ofSeconds(2));
			assertThat(properties.getRetention().getSucceeded()).isEqualTo(Duration.ofDays(1));
			assertThat(properties.getRetention().getDead()).isEqualTo(Duration.ofDays(14));
			assertThat(properties.getShutdownTimeout()).isEqualTo(Duration.ofSeconds(15));
			assertThat(properties.getShutdownGrace()).isEqualTo(Duration.ofSeconds(5));
			assertThat(properties.getDefaultTimeout()).isZero();
			assertThat(properties.getRetry().getMaxAttempts()).isEqualTo(20);
			assertThat(properties.getRetry().getInitialBackoff()).isEqualTo(Duration.ofSeconds(1));
			assertThat(properties.getRetry().getMaxBackoff()).isEqualTo(Duration.ofHours(1));
			assertThat(properties.getRetry().getMultiplier()).isEqualTo(2.0);
			assertThat(properties.getRetry().getJitter()).isEqualTo(0.2);
			assertThat(properties.getMaxPayloadLength()).isEqualTo(1024 * 1024);
			assertThat(properties.getMaxErrorLength()).isEqualTo(16 * 1024);
			assertThat(properties.getMaxResultLength()).isEqualTo(RuntimeSettings.DEFAULT_MAX_PAYLOAD_LENGTH);
			assertThat(properties.getPayload().isFailOnUnknownProperties()).isTrue();
			assertThat(properties.getConsole().isEnabled()).isFalse();
			assertThat(properties.getConsole().getPath()).isEqualTo("/jobqueue");
			assertThat(properties.getConsole().isWritesEnabled()).isFalse();
			// One source of truth: the values above are the core's own defaults.
			assertThat(properties.runtimeSettings().build()).usingRecursiveComparison().isEqualTo(RuntimeSettings.defaults());
			assertThat(properties.getRetry().toRetryPolicy()).isEqualTo(RetryPolicy.DEFAULT);
			assertThat(properties.getMaxPayloadLength()).isEqualTo(RuntimeSettings.DEFAULT_MAX_PAYLOAD_LENGTH);
		});
	}

	@Test
	void aConfiguredQueueIsAddedBesideTheDefaultOne() {
		runner.withPropertyValues("jobqueue.queues.mail.concurrency=2", "jobqueue.queues.default.concurrency=3")
			.run(context -> assertThat(context.getBean(JobQueueProperties.class).runtimeSettings().build().queues())
				.isEqualTo(Map.of("default", 3, "mail", 2)));
	}

	@Test
	void aConcurrencyOfZeroTakesAQueueOffThisNodeTheDefaultQueueIncluded() {
		runner.withPropertyValues("jobqueue.queues.default.concurrency=0", "jobqueue.queues.mail.concurrency=2")
			.run(context -> assertThat(context.getBean(JobQueueProperties.class).runtimeSettings().build().queues())
				.isEqualTo(Map.of("mail", 2)));
	}

	@Test
	void aQueuesPrefetchReachesTheRuntimeAndIsNoneUnlessSet() {
		runner.withPropertyValues("jobqueue.queues.mail.concurrency=2", "jobqueue.queues.mail.prefetch=6")
			.run(context -> {
				RuntimeSettings settings = context.getBean(JobQueueProperties.class).runtimeSettings().build();
				assertThat(settings.prefetch("mail")).isEqualTo(6);
				assertThat(settings.prefetch("default")).isZero();
			});
	}

	@Test
	void aQueueThatStartsPausedReachesTheRuntimeAndIsWorkedAsAnyOther() {
		runner.withPropertyValues("jobqueue.queues.backfill.initially-paused=true")
			.run(context -> {
				RuntimeSettings settings = context.getBean(JobQueueProperties.class).runtimeSettings().build();
				assertThat(settings.initiallyPaused()).containsExactly("backfill");
				assertThat(settings.queues()).isEqualTo(Map.of("default", 8, "backfill", 8));
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			jobqueue.queues.mail.concurrency=-1   | jobqueue.queues.mail.concurrency must not be negative (0: not worked on this node), was -1
			jobqueue.queues.mail.prefetch=-1      | jobqueue.queues.mail.prefetch must not be negative, was -1
			jobqueue.heartbeat-interval=30s       | jobqueue.heartbeat-interval (PT30S) must be shorter than jobqueue.lease-duration (PT30S)
			jobqueue.poll-interval=0s             | jobqueue.poll-interval must be a positive duration, was PT0S
			jobqueue.lease-duration=-1s           | jobqueue.lease-duration must be a positive duration, was PT-1S
			jobqueue.retention.dead=-1d           | jobqueue.retention.dead must not be negative, was PT-24H
			jobqueue.shutdown-timeout=-1s         | jobqueue.shutdown-timeout must not be negative, was PT-1S
			jobqueue.shutdown-grace=-1s           | jobqueue.shutdown-grace must not be negative, was PT-1S
			jobqueue.default-timeout=-1s          | jobqueue.default-timeout must not be negative, was PT-1S
			jobqueue.vacuum-interval=-1s          | jobqueue.vacuum-interval must not be negative, was PT-1S
			jobqueue.retry.max-attempts=0         | jobqueue.retry.max-attempts must be at least 1, was 0
			jobqueue.retry.initial-backoff=0ms    | jobqueue.retry.initial-backoff must be a positive duration, was PT0S
			jobqueue.retry.max-backoff=100ms      | jobqueue.retry.max-backoff (PT0.1S) must not be shorter than jobqueue.retry.initial-backoff (PT1S)
			jobqueue.retry.multiplier=0.5         | jobqueue.retry.multiplier must be at least 1.0, was 0.5
			jobqueue.retry.jitter=1.0             | jobqueue.retry.jitter must be at least 0 and below 1, was 1.0
			jobqueue.max-payload-length=0         | jobqueue.max-payload-length must be at least 1, was 0
			jobqueue.max-error-length=100         | jobqueue.max-error-length must be at least 256, was 100
			jobqueue.max-result-length=0          | jobqueue.max-result-length must be at least 1, was 0
			jobqueue.external-kinds[0]=           | jobqueue.external-kinds[0] must not be blank
			jobqueue.concurrency-key-limits.t-=0  | jobqueue.concurrency-key-limits.t- must be at least 1, was 0
			jobqueue.console.path=jobqueue        | jobqueue.console.path must start with '/' and name segments of letters, digits, '.', '_', '~' or '-', no trailing '/'; was 'jobqueue'
			jobqueue.console.path=/ops/           | jobqueue.console.path must start with '/'
			jobqueue.console.path=/ops/*          | jobqueue.console.path must start with '/'
			""")
	void anInvalidValueFailsTheStartupNamingTheProperty(String property, String message) {
		runner.withPropertyValues(property).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
		});
	}

	@Test
	void aKeyLimitPrefixStartingWithTheReservedKindPrefixFailsTheStartupNamingTheProperty() {
		// Through a property source of its own: withPropertyValues would split the name at its ':'.
		runner.withInitializer(context -> context.getEnvironment()
			.getPropertySources()
			.addFirst(new MapPropertySource("test", Map.of("jobqueue.concurrency-key-limits[kind:report]", "2"))))
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause()
					.hasMessageContaining("jobqueue.concurrency-key-limits.kind:report must not start with 'kind:'");
			});
	}

	@Test
	void failOnUnknownPayloadPropertiesCanBeTurnedOffAndReachesTheRuntime() {
		runner.withPropertyValues("jobqueue.payload.fail-on-unknown-properties=false")
			.run(context -> assertThat(context.getBean(JobQueueProperties.class).runtimeSettings().build()
				.failOnUnknownPayloadProperties()).isFalse());
	}

	@Test
	void theMaxResultLengthReachesTheRuntime() {
		runner.withPropertyValues("jobqueue.max-result-length=4096")
			.run(context -> assertThat(context.getBean(JobQueueProperties.class).runtimeSettings().build().maxResultLength())
				.isEqualTo(4096));
	}

	@Test
	void aVacuumIntervalOfZeroTurnsTheVacuumOffAndReachesTheRuntimeAsZero() {
		runner.withPropertyValues("jobqueue.vacuum-interval=0").run(context -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(JobQueueProperties.class).runtimeSettings().build().vacuumInterval()).isZero();
		});
	}

	@Test
	void theHealthThresholdsAreOffByDefaultAndTheirValuesReadEveryTenSeconds() {
		healthRunner.run(context -> {
			JobQueueHealthProperties health = context.getBean(JobQueueHealthProperties.class);
			assertThat(health.getSampleInterval()).isEqualTo(Duration.ofSeconds(10));
			assertThat(health.getOldestReadyAgeOutOfService()).isZero();
			assertThat(health.getOldestReadyAgeDown()).isZero();
			assertThat(health.getXminHeldOutOfService()).isZero();
			assertThat(health.getXminHeldDown()).isZero();
		});
	}

	@Test
	void healthThresholdsBindFromTheirProperties() {
		healthRunner.withPropertyValues("jobqueue.health.oldest-ready-age-out-of-service=5m",
				"jobqueue.health.oldest-ready-age-down=30m", "jobqueue.health.xmin-held-out-of-service=1h")
			.run(context -> {
				JobQueueHealthProperties health = context.getBean(JobQueueHealthProperties.class);
				assertThat(health.getOldestReadyAgeOutOfService()).isEqualTo(Duration.ofMinutes(5));
				assertThat(health.getOldestReadyAgeDown()).isEqualTo(Duration.ofMinutes(30));
				assertThat(health.getXminHeldOutOfService()).isEqualTo(Duration.ofHours(1));
				assertThat(health.getXminHeldDown()).isZero();
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			jobqueue.health.sample-interval=0s                   | jobqueue.health.sample-interval must be a positive duration, was PT0S
			jobqueue.health.oldest-ready-age-out-of-service=-1s  | jobqueue.health.oldest-ready-age-out-of-service must not be negative (0: never), was PT-1S
			jobqueue.health.oldest-ready-age-down=-1m            | jobqueue.health.oldest-ready-age-down must not be negative (0: never), was PT-1M
			jobqueue.health.xmin-held-out-of-service=-1s         | jobqueue.health.xmin-held-out-of-service must not be negative (0: never), was PT-1S
			jobqueue.health.xmin-held-down=-1h                   | jobqueue.health.xmin-held-down must not be negative (0: never), was PT-1H
			""")
	void anInvalidHealthValueFailsTheStartupNamingTheProperty(String property, String message) {
		healthRunner.withPropertyValues(property).run(context -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(message);
		});
	}

	@Test
	void aDownThresholdNoLongerThanItsOutOfServiceThresholdFailsTheStartupNamingBoth() {
		healthRunner.withPropertyValues("jobqueue.health.xmin-held-out-of-service=1h", "jobqueue.health.xmin-held-down=30m")
			.run(context -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining(
						"jobqueue.health.xmin-held-down (PT30M) must be longer than "
								+ "jobqueue.health.xmin-held-out-of-service (PT1H)");
			});
	}

	@Test
	void everyPropertyCarriesADescriptionAndEveryScalarADefaultInTheGeneratedMetadata() throws Exception {
		JsonNode metadata;
		try (InputStream json = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
			metadata = JsonMapper.builder().build().readTree(json);
		}
		List<String> names = metadata.get("properties")
			.valueStream()
			.map(p -> p.get("name").asString())
			.filter(name -> name.startsWith("jobqueue."))
			.toList();
		assertThat(names).containsExactlyInAnyOrder("jobqueue.enabled", "jobqueue.dialect",
				"jobqueue.initialize-schema", "jobqueue.worker.enabled", "jobqueue.worker.capture-logs", "jobqueue.queues",
				"jobqueue.concurrency-key-limits",
				"jobqueue.external-kinds",
				"jobqueue.notify", "jobqueue.poll-interval",
				"jobqueue.lease-duration", "jobqueue.heartbeat-interval", "jobqueue.reaper-interval",
				"jobqueue.prune-interval", "jobqueue.vacuum-interval", "jobqueue.retention.succeeded", "jobqueue.retention.dead",
				"jobqueue.shutdown-timeout", "jobqueue.shutdown-grace", "jobqueue.default-timeout",
				"jobqueue.retry.max-attempts", "jobqueue.retry.initial-backoff",
				"jobqueue.retry.max-backoff", "jobqueue.retry.multiplier", "jobqueue.retry.jitter",
				"jobqueue.max-payload-length", "jobqueue.max-error-length", "jobqueue.max-result-length",
				"jobqueue.payload.fail-on-unknown-properties", "jobqueue.schedules", "jobqueue.health.sample-interval",
				"jobqueue.health.oldest-ready-age-out-of-service", "jobqueue.health.oldest-ready-age-down",
				"jobqueue.health.xmin-held-out-of-service", "jobqueue.health.xmin-held-down", "jobqueue.console.enabled",
				"jobqueue.console.path", "jobqueue.console.writes-enabled",
				"jobqueue.console.allow-unsecured-writes", "jobqueue.console.xmin-held-warning",
				"jobqueue.console.dead-rows-warning", "jobqueue.queues.<name>.concurrency",
				"jobqueue.queues.<name>.prefetch", "jobqueue.queues.<name>.initially-paused", "jobqueue.schedules.<name>.kind",
				"jobqueue.schedules.<name>.cron", "jobqueue.schedules.<name>.zone", "jobqueue.schedules.<name>.every",
				"jobqueue.schedules.<name>.payload", "jobqueue.schedules.<name>.queue", "jobqueue.schedules.<name>.priority",
				"jobqueue.schedules.<name>.enabled", "jobqueue.schedules.<name>.misfire",
				"jobqueue.schedules.<name>.misfire-threshold", "jobqueue.schedules.<name>.fall-back");
		metadata.get("properties").valueStream().forEach(property -> {
			String name = property.get("name").asString();
			if (!names.contains(name)) {
				return;
			}
			assertThat(property.has("description")).as("description of %s", name).isTrue();
			// Maps, the dialect (detected) and the schedule fields that are unset unless given have no default.
			if (!List.of("jobqueue.dialect", "jobqueue.queues", "jobqueue.concurrency-key-limits",
					"jobqueue.external-kinds", "jobqueue.schedules").contains(name)
					&& !name.matches("jobqueue\\.schedules\\.<name>\\.(kind|cron|zone|every|payload|queue|priority)")) {
				assertThat(property.has("defaultValue")).as("default of %s", name).isTrue();
			}
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(JobQueueProperties.class)
	static class PropertiesConfiguration {
	}

	@Configuration(proxyBeanMethods = false)
	@EnableConfigurationProperties(JobQueueHealthProperties.class)
	static class HealthPropertiesConfiguration {
	}
}
