package dev.jobqueue;

import java.time.Duration;

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
}
