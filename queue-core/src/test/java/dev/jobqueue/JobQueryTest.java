package dev.jobqueue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.EnumSet;

import org.junit.jupiter.api.Test;

class JobQueryTest {

	@Test
	void eachConditionMakesANewQueryAndLeavesTheOneItCameFromAsItWas() {
		JobQuery mail = JobQuery.all().queue("mail");
		JobQuery deadMail = mail.states(JobState.dead).pageSize(10);

		assertThat(mail.states()).isEqualTo(EnumSet.allOf(JobState.class));
		assertThat(mail.pageSize()).isEqualTo(JobQuery.DEFAULT_PAGE_SIZE);
		assertThat(deadMail.queue()).isEqualTo("mail");
		assertThat(deadMail.states()).containsExactly(JobState.dead);
		assertThat(deadMail.pageSize()).isEqualTo(10);
		assertThat(JobQuery.all().queue()).isNull();
	}

	@Test
	void onlyFinishedSaysWhetherEveryStateAskedForIsAFinishedOne() {
		assertThat(JobQuery.all().onlyFinished()).isFalse();
		assertThat(JobQuery.all().states(JobState.dead, JobState.succeeded).onlyFinished()).isTrue();
		assertThat(JobQuery.all().states(JobState.dead, JobState.ready).onlyFinished()).isFalse();
	}

	@Test
	void aRangeMayBeOpenAtEitherEndButNotAtBoth() {
		Instant now = Instant.parse("2026-03-02T09:00:00Z");

		assertThat(JobQuery.all().createdBetween(now, null).createdFrom()).isEqualTo(now);
		assertThat(JobQuery.all().finishedBetween(null, now).finishedBefore()).isEqualTo(now);
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().finishedBetween(null, null))
			.withMessage("finishedBetween needs at least one bound");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().createdBetween(now, now.minusSeconds(1)))
			.withMessage("createdBetween needs its start before its end, was 2026-03-02T09:00:00Z to 2026-03-02T08:59:59Z");
	}

	@Test
	void badValuesAreRefusedWhereTheyAreGiven() {
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().states(JobState.dead, null))
			.withMessage("states must not hold null");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().kind("a\u0000b"))
			.withMessage("kind must not hold the character U+0000");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().errorContains("x".repeat(1_001)))
			.withMessage("errorContains must be at most 1000 characters, was 1001");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().queue(null))
			.withMessage("queue must match [A-Za-z0-9_.-]{1,100}, was 'null'");
	}
}
