package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class RuntimeSettingsTest {

	@Test
	void theJobTableIsLookedAtForVacuumingEveryTwoSecondsByDefault() {
		assertThat(RuntimeSettings.defaults().vacuumInterval()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void aVacuumIntervalOfZeroIsAcceptedAsOff() {
		assertThat(RuntimeSettings.defaults().withVacuumInterval(Duration.ZERO).vacuumInterval()).isZero();
	}

	@Test
	void aNegativeVacuumIntervalIsRefused() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> RuntimeSettings.defaults().withVacuumInterval(Duration.ofSeconds(-1)))
			.withMessage("vacuum-interval must not be negative, was PT-1S");
	}
}
