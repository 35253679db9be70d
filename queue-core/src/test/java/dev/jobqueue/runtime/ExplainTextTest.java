package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

class ExplainTextTest {

	@Test
	void waitsAreRoundedToTheNearestOfTheirLargestUnit() {
		assertThat(ExplainText.duration(Duration.ofMillis(499))).isEqualTo("under 1 s");
		assertThat(ExplainText.duration(Duration.ofMillis(500))).isEqualTo("1 s");
		assertThat(ExplainText.duration(Duration.ofMillis(59_499))).isEqualTo("59 s");
		assertThat(ExplainText.duration(Duration.ofMillis(59_500))).isEqualTo("1 m");
		assertThat(ExplainText.duration(Duration.ofSeconds(4 * 60 - 1))).isEqualTo("4 m");
		assertThat(ExplainText.duration(Duration.ofSeconds(4 * 60 + 29))).isEqualTo("4 m");
		assertThat(ExplainText.duration(Duration.ofMinutes(59).plusSeconds(29))).isEqualTo("59 m");
		assertThat(ExplainText.duration(Duration.ofMinutes(59).plusSeconds(30))).isEqualTo("1 h");
		assertThat(ExplainText.duration(Duration.ofHours(47).plusMinutes(29))).isEqualTo("47 h");
		assertThat(ExplainText.duration(Duration.ofHours(47).plusMinutes(30))).isEqualTo("2 d");
	}

	@Test
	void timesArePrintedToTheSecondInUtc() {
		assertThat(ExplainText.time(Instant.parse("2026-11-27T10:04:00.987654Z"))).isEqualTo("2026-11-27T10:04:00Z");
	}

	@Test
	void anErrorIsItsFirstLineCut() {
		assertThat(ExplainText.error("java.lang.IllegalStateException: boom\n\tat A.b(A.java:1)"))
			.isEqualTo("java.lang.IllegalStateException: boom");
		assertThat(ExplainText.error("x".repeat(500))).hasSize(ExplainText.MAX_ERROR).endsWith("…");
		assertThat(ExplainText.error(null)).isEqualTo("no error recorded");
	}

	@Test
	void holdersAreNamedUpToTheListAndTheRestCounted() {
		assertThat(ExplainText.jobs(List.of(17L), 1)).isEqualTo("job 17");
		assertThat(ExplainText.jobs(List.of(17L, 18L), 2)).isEqualTo("jobs 17, 18");
		assertThat(ExplainText.jobs(List.of(17L, 18L), 5)).isEqualTo("jobs 17, 18 and 3 more");
	}
}
