package dev.jobqueue.autoconfigure;

import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import dev.jobqueue.JobContext;
import dev.jobqueue.JobListener.Outcome;
import dev.jobqueue.JobState;
import dev.jobqueue.store.JobStore;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.PauseScope;
import dev.jobqueue.support.FaultInjectingStore;
import dev.jobqueue.support.SqliteTestDatabase;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

class JobQueueMetricsTests {

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final JobContext job = new RunningJob(7, "send-mail", "mail", 1, 3, 5, true);

	@Test
	void theListenerCountsAndTimesByQueueKindAndOutcome() {
		MicrometerJobListener listener = new MicrometerJobListener(registry);

		listener.onEnqueued("mail", "send-mail");
		listener.onStarted(job, Duration.ofSeconds(2));
		listener.onFinished(job, Outcome.RETRIED, Duration.ofMillis(30));
		listener.onFinished(job, Outcome.LEASE_LOST, Duration.ofMillis(40));
		listener.onReaped(3);

		assertThat(registry.get("jobqueue.jobs.enqueued").tags("queue", "mail", "kind", "send-mail").counter().count())
			.isOne();
		assertThat(registry.get("jobqueue.jobs.completed").tags("queue", "mail", "kind", "send-mail", "outcome", "retried")
			.counter()
			.count()).isOne();
		assertThat(registry.get("jobqueue.jobs.completed").tags("outcome", "lease_lost").counter().count()).isOne();
		assertThat(registry.get("jobqueue.jobs.wait").tags("queue", "mail", "kind", "send-mail").timer()
			.totalTime(TimeUnit.SECONDS)).isEqualTo(2.0);
		assertThat(registry.get("jobqueue.jobs.execution").tags("queue", "mail", "kind", "send-mail").timer().count())
			.isEqualTo(2);
		assertThat(registry.get("jobqueue.jobs.reaped").counter().count()).isEqualTo(3);
	}

	@Test
	void theLagOfEachStartIsAHistogramTaggedByQueueAlone() {
		// The simple registry keeps no histogram buckets (Prometheus' does); a filter sees what the timer asks for.
		Map<String, DistributionStatisticConfig> asked = new ConcurrentHashMap<>();
		registry.config().meterFilter(new MeterFilter() {
			@Override
			public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
				asked.put(id.getName(), config);
				return config;
			}
		});
		MicrometerJobListener listener = new MicrometerJobListener(registry);

		listener.onStarted(job, Duration.ofSeconds(2));
		listener.onStarted(new RunningJob(8, "digest", "mail", 1, 3, 6, true), Duration.ofMillis(-5));

		Timer lag = registry.get("jobqueue.queue.lag").timer();
		assertThat(lag.getId().getTags()).containsExactly(Tag.of("queue", "mail"));
		assertThat(lag.count()).isEqualTo(2);
		assertThat(lag.totalTime(TimeUnit.SECONDS)).as("a start before its due time counts as no lag").isEqualTo(2.0);
		assertThat(asked.get("jobqueue.queue.lag").isPercentileHistogram()).isTrue();
		assertThat(asked.get("jobqueue.queue.lag").getMaximumExpectedValueAsDouble())
			.isEqualTo(Duration.ofHours(1).toNanos());
	}

	@Test
	void theMaintainerGaugeIsZeroFromStartupAndOneWhileThisNodeMaintains() {
		MicrometerJobListener listener = new MicrometerJobListener(registry);
		assertThat(registry.get("jobqueue.maintainer").gauge().value()).isZero();

		listener.onMaintaining(true);
		assertThat(registry.get("jobqueue.maintainer").gauge().value()).isOne();

		listener.onMaintaining(false);
		assertThat(registry.get("jobqueue.maintainer").gauge().value()).isZero();
	}

	@Test
	void theListenerCountsFiresAndMisfiresBySchedule() {
		MicrometerJobListener listener = new MicrometerJobListener(registry);

		listener.onScheduleFired("nightly", 1);
		listener.onScheduleMisfired("nightly", 5);
		listener.onScheduleFired("nightly", 5);

		assertThat(registry.get("jobqueue.schedules.fired").tags("schedule", "nightly").counter().count()).isEqualTo(6);
		assertThat(registry.get("jobqueue.schedules.misfired").tags("schedule", "nightly").counter().count())
			.isEqualTo(5);
	}

	@Test
	void gaugesReadCachedCountsAndQueryTheStoreAtMostOncePerRefreshPeriod() {
		JobStore store = StubStoreConfiguration.mockedStore("postgresql");
		given(store.telemetry().countUnfinishedByQueue()).willReturn(counts("default", JobState.ready, 4L),
				counts("default", JobState.ready, 9L));
		AtomicLong nanos = new AtomicLong();
		JobCountGauges gauges = new JobCountGauges(store, List.of("default"), nanos::get);
		gauges.bindTo(registry);

		for (int scrape = 0; scrape < 10; scrape++) {
			assertThat(readyGauge("default")).isEqualTo(4.0);
		}
		verify(store.telemetry(), times(1)).countUnfinishedByQueue();

		nanos.addAndGet(JobCountGauges.REFRESH.toNanos());
		assertThat(readyGauge("default")).isEqualTo(9.0);
		verify(store.telemetry(), times(2)).countUnfinishedByQueue();
	}

	@Test
	void finishedStatesAreCountedOnlyEveryFinishedRefreshPeriodAndReadyAndRunningEveryRefresh() {
		JobStore store = StubStoreConfiguration.mockedStore("postgresql");
		given(store.telemetry().countByQueueAndState()).willReturn(counts("default", JobState.succeeded, 100L),
				counts("default", JobState.succeeded, 250L));
		given(store.telemetry().countUnfinishedByQueue()).willReturn(counts("default", JobState.running, 3L),
				counts("default", JobState.running, 5L));
		AtomicLong nanos = new AtomicLong();
		JobCountGauges gauges = new JobCountGauges(store, List.of("default"), nanos::get);
		gauges.bindTo(registry);
		assertThat(gauge("default", JobState.succeeded)).isEqualTo(100.0);
		assertThat(gauge("default", JobState.running)).isEqualTo(3.0);

		nanos.addAndGet(JobCountGauges.REFRESH.toNanos());
		assertThat(gauge("default", JobState.succeeded)).isEqualTo(100.0);
		assertThat(gauge("default", JobState.running)).isEqualTo(5.0);
		verify(store.telemetry(), times(1)).countByQueueAndState();

		nanos.addAndGet(JobCountGauges.FINISHED_REFRESH.toNanos());
		assertThat(gauge("default", JobState.succeeded)).isEqualTo(250.0);
		verify(store.telemetry(), times(2)).countByQueueAndState();
	}

	@Test
	void aPausedQueueGaugesOneAndTheOthersZeroReadAtMostOncePerRefreshPeriod() {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			JobStore store = database.store();
			store.pauses().pause(PauseScope.queue, "reports");
			AtomicLong nanos = new AtomicLong();
			new JobCountGauges(store, List.of("default"), nanos::get).bindTo(registry);

			assertThat(pausedGauge("reports")).isOne();
			assertThat(pausedGauge("default")).isZero();
			store.pauses().pause(PauseScope.queue, "default");
			assertThat(pausedGauge("default")).isZero();
			nanos.addAndGet(JobCountGauges.REFRESH.toNanos());
			assertThat(pausedGauge("default")).isOne();
		}
	}

	private double pausedGauge(String queue) {
		return registry.get("jobqueue.queue.paused").tags("queue", queue).gauge().value();
	}

	@Test
	void aQueueFirstSeenInAnEnqueueGetsItsGauges() {
		JobStore store = StubStoreConfiguration.mockedStore("postgresql");
		given(store.telemetry().countUnfinishedByQueue()).willReturn(counts("reports", JobState.ready, 2L));
		given(store.telemetry().countByQueueAndState()).willReturn(counts("archive", JobState.succeeded, 5L));
		JobCountGauges gauges = new JobCountGauges(store, List.of("default"), () -> 0L);
		gauges.bindTo(registry);
		assertThat(registry.find("jobqueue.jobs").tag("queue", "mail").gauges()).isEmpty();

		gauges.onEnqueued("mail", "send-mail");

		assertThat(registry.find("jobqueue.jobs").tag("queue", "mail").gauges()).hasSize(JobState.values().length);
		assertThat(readyGauge("reports")).as("a queue found in the database at startup").isEqualTo(2.0);
		assertThat(gauge("archive", JobState.succeeded)).as("a queue with finished jobs only").isEqualTo(5.0);
	}

	@Test
	void aFailingCountKeepsTheLastValuesAndNeverFailsAScrape() {
		JobStore store = StubStoreConfiguration.mockedStore("postgresql");
		given(store.telemetry().countUnfinishedByQueue()).willReturn(counts("default", JobState.ready, 4L))
			.willThrow(new IllegalStateException("database down"));
		AtomicLong nanos = new AtomicLong();
		JobCountGauges gauges = new JobCountGauges(store, List.of("default"), nanos::get);
		gauges.bindTo(registry);

		nanos.addAndGet(JobCountGauges.REFRESH.toNanos());

		assertThat(readyGauge("default")).isEqualTo(4.0);
	}

	@Test
	void anErrorFromACountKeepsTheLastValuesAndTheNextRefreshCountsAgain() {
		try (SqliteTestDatabase database = new SqliteTestDatabase()) {
			FaultInjectingStore faults = new FaultInjectingStore(database.store());
			AtomicLong nanos = new AtomicLong();
			JobCountGauges gauges = new JobCountGauges(faults.store(), List.of("default"), nanos::get);
			gauges.bindTo(registry);
			database.store().enqueues().enqueue(new NewJob("default", "greet", "{}", 1, 5, null, Duration.ZERO, 3, null));
			faults.failNext("countUnfinishedByQueue", 1);

			nanos.addAndGet(JobCountGauges.REFRESH.toNanos());
			assertThat(readyGauge("default")).isZero();
			nanos.addAndGet(JobCountGauges.REFRESH.toNanos());

			assertThat(readyGauge("default")).isEqualTo(1.0);
			assertThat(faults.failuresLeft("countUnfinishedByQueue")).isZero();
		}
	}

	private double readyGauge(String queue) {
		return gauge(queue, JobState.ready);
	}

	private double gauge(String queue, JobState state) {
		return registry.get("jobqueue.jobs").tags("queue", queue, "state", state.name()).gauge().value();
	}

	private static Map<String, Map<JobState, Long>> counts(String queue, JobState state, long count) {
		Map<JobState, Long> byState = new EnumMap<>(JobState.class);
		byState.put(state, count);
		return Map.of(queue, byState);
	}

	private record RunningJob(long jobId, String kind, String queue, int attempt, int maxAttempts, long leaseToken,
			boolean isLeaseHeld) implements JobContext {

		@Override
		public boolean isCancelled() {
			return false;
		}
	}
}
