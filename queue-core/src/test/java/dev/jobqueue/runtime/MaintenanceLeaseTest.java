package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import org.junit.jupiter.api.Test;

/** The maintenance lease's length and ask interval, which the docs' handover times are made of. */
class MaintenanceLeaseTest {

	@Test
	void theLeaseIsAThirdOfTheJobLeaseAtMostTenSeconds() {
		assertThat(MaintenanceLease.length(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(10));
		assertThat(MaintenanceLease.length(Duration.ofSeconds(6))).isEqualTo(Duration.ofSeconds(2));
		assertThat(MaintenanceLease.length(Duration.ofHours(1))).isEqualTo(Duration.ofSeconds(10));
	}
}
