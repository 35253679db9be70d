package dev.jobqueue;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RuntimeSettingsTest {

	@Test
	void theJobTableIsLookedAtForVacuumingEveryTwoSecondsByDefault() {
		assertThat(RuntimeSettings.defaults().vacuumInterval()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aVacuumIntervalOfZeroIsAcceptedAsOff() {
		assertThat(RuntimeSettings.builder().vacuumInterval(Duration.ZERO).build().vacuumInterval()).isZero();
	}

	@Test
	void aNegativeVacuumIntervalIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RuntimeSettings.builder().vacuumInterval(Duration.ofSeconds(-1)).build())
			.withMessage("vacuum-interval must not be negative, was PT-1S");
	}

	@Test
	void aConcurrencyOfZeroTakesAQueueOffThisNodeTheDefaultQueueIncluded() {
		RuntimeSettings dedicated = RuntimeSettings.builder().queue("mail", 2).queue("default", 0).build();

		assertThat(dedicated.queues()).isEqualTo(Map.of("mail", 2));
		assertThat(dedicated.toBuilder().queue("mail", 0).build().queues()).isEmpty();
		assertThat(RuntimeSettings.builder().queues(Map.of("default", 0, "mail", 1)).build().queues())
			.isEqualTo(Map.of("mail", 1));
	}

	@Test
	void aKeyLimitPrefixOfTheKindsOwnKeysIsRefused() {
		assertThatIllegalArgumentException().isThrownBy(() -> RuntimeSettings.builder().concurrencyKeyLimit("kind:report", 2))
			.withMessageStartingWith("concurrency-key-limits.kind:report must not start with 'kind:'");
		assertThat(RuntimeSettings.builder().concurrencyKeyLimit("kind-", 2).build().concurrencyKeyLimits())
			.isEqualTo(Map.of("kind-", 2));
	}

	@Test
	void aNegativeConcurrencyIsRefusedNamingTheQueue() {
		assertThatIllegalArgumentException().isThrownBy(() -> RuntimeSettings.builder().queue("mail", -1))
			.withMessage("queues.mail.concurrency must not be negative (0: not worked on this node), was -1");
	}

	@Test
	void aPrefetchIsKeptPerQueueAndNoneUnlessSet() {
		RuntimeSettings settings = RuntimeSettings.builder().queue("mail", 2).prefetch("mail", 6).build();

		assertThat(settings.prefetch("mail")).isEqualTo(6);
		assertThat(settings.toBuilder().build().prefetch("mail")).isEqualTo(6);
		assertThat(settings.prefetch("default")).isZero();
		assertThatIllegalArgumentException().isThrownBy(() -> RuntimeSettings.builder().prefetch("mail", -1))
			.withMessage("queues.mail.prefetch must not be negative, was -1");
	}

	@Test
	void queuesThatStartPausedAreKeptByNameAndCheckedAsQueueNames() {
		RuntimeSettings settings = RuntimeSettings.builder().initiallyPaused("backfill").build();

		assertThat(settings.initiallyPaused()).isEqualTo(Set.of("backfill"));
		assertThat(settings.toBuilder().build().initiallyPaused()).isEqualTo(Set.of("backfill"));
		assertThat(RuntimeSettings.defaults().initiallyPaused()).isEmpty();
		assertThatIllegalArgumentException().isThrownBy(() -> RuntimeSettings.builder().initiallyPaused("a b"))
			.withMessage("initially paused queue name must match [A-Za-z0-9_.-]{1,100}, was 'a b'");
	}
}
