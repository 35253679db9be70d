package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ErrorTextTest {

	@Test
	void aFiveMegabyteMessageIsCutToTheMaximumWithAMarkerSayingHowMuchWasCut() {
		String text = ErrorText.of(new IllegalStateException("x".repeat(5_000_000)), 16_384);

		assertThat(text).hasSize(16_384).startsWith("java.lang.IllegalStateException: xxx");
		assertThat(text).containsPattern("\\.\\.\\. \\(\\d+ more characters cut\\)$");
	}

	@Test
	void nulCharactersWhichPostgresqlTextCannotHoldAreReplaced() {
		String text = ErrorText.of(new IllegalStateException("before\u0000after"), 16_384);

		assertThat(text).doesNotContain("\u0000").startsWith("java.lang.IllegalStateException: before\uFFFDafter");
	}
}
