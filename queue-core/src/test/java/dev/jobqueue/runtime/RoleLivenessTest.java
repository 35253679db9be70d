package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

/** When a watched role counts as overdue, on an injected clock. */
class RoleLivenessTest {

	private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");

	private Instant now = START;

	private final AtomicInteger stops = new AtomicInteger();

	private final RoleLiveness liveness = new RoleLiveness(new Clock() {
		@Override
		public Instant instant() {
			return now;
		}

		@Override
		public ZoneOffset getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}
	}, stops::incrementAndGet);

	@Test
	void aRoleIsOverdueOnceHalfALeasePassedWithoutASuccessfulPass() {
		liveness.watch("heartbeat", Duration.ofSeconds(10), Duration.ofSeconds(30));

		now = START.plusSeconds(15);
		assertThat(liveness.overdue()).isEmpty();
		now = START.plusSeconds(16);
		assertThat(liveness.overdue()).singleElement()
			.isEqualTo(new RoleLiveness.Overdue("heartbeat", START, Duration.ofSeconds(15)));

		liveness.succeeded("heartbeat");
		assertThat(liveness.overdue()).isEmpty();
	}

	@Test
	void aRoleWithALongIntervalMayBeSilentForOneAndAHalfOfIt() {
		liveness.watch("claim default", Duration.ofHours(1), Duration.ofSeconds(30));

		now = START.plus(Duration.ofMinutes(89));
		assertThat(liveness.overdue()).isEmpty();
		now = START.plus(Duration.ofMinutes(91));
		assertThat(liveness.overdue()).extracting(RoleLiveness.Overdue::role).containsExactly("claim default");
	}

	@Test
	void aFailedPassLeavesTheLastSuccessAndAnErrorOfTheJvmStopsTheRuntime() {
		liveness.watch("heartbeat", Duration.ofSeconds(10), Duration.ofSeconds(30));
		now = START.plusSeconds(5);

		assertThat(liveness.pass("heartbeat", () -> {
			throw new AssertionError("not a JVM failure");
		}, Duration.ofSeconds(10))).isFalse();
		assertThat(liveness.lastSuccesses()).containsEntry("heartbeat", START);
		assertThat(stops).hasValue(0);

		assertThat(liveness.pass("heartbeat", () -> {
			throw new OutOfMemoryError("injected");
		}, Duration.ofSeconds(10))).isFalse();
		assertThat(stops).hasValue(1);
		assertThat(liveness.fatal()).get().isInstanceOf(OutOfMemoryError.class);
	}
}
