package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.Job;
import dev.jobqueue.JobPage;
import dev.jobqueue.JobQuery;
import dev.jobqueue.JobState;
import dev.jobqueue.support.QueueFixture;
import dev.jobqueue.support.StatedJobs;
import dev.jobqueue.support.TestDatabase;

/** What the search of jobs and the counts by queue and state promise, on every database. */
public abstract class SearchContractTest {

	private QueueFixture fixture;

	private StatedJobs jobs;

	protected abstract TestDatabase database();

	@BeforeEach
	void setUp() {
		fixture = new QueueFixture(database());
		jobs = new StatedJobs(fixture.store());
	}

	@AfterEach
	void tearDown() {
		fixture.close();
	}

	@Test
	void eachFilterSelectsTheJobsItNamesNewestFirst() {
		long ready = jobs.ready("mail", "send");
		long running = jobs.running("mail", "send").id();
		long succeeded = jobs.succeeded("mail", "send");
		long dead = jobs.dead("reports", "build", "java.net.SocketTimeoutException: Read timed out");
		long otherDead = jobs.dead("mail", "send", "IllegalStateException: no recipient");
		long cancelled = jobs.cancelled("reports", "build");

		assertThat(ids(JobQuery.all())).containsExactly(cancelled, otherDead, dead, succeeded, running, ready);
		assertThat(ids(JobQuery.all().queue("reports"))).containsExactly(cancelled, dead);
		assertThat(ids(JobQuery.all().kind("send"))).containsExactly(otherDead, succeeded, running, ready);
		assertThat(ids(JobQuery.all().states(JobState.dead))).containsExactly(otherDead, dead);
		assertThat(ids(JobQuery.all().states(JobState.ready, JobState.running))).containsExactly(running, ready);
		assertThat(ids(JobQuery.all().states(JobState.succeeded, JobState.cancelled))).containsExactly(cancelled, succeeded);
		assertThat(ids(JobQuery.all().queue("mail").states(JobState.dead))).containsExactly(otherDead);
		assertThat(ids(JobQuery.all().errorContains("timed out"))).containsExactly(dead);
		assertThat(ids(JobQuery.all().errorContains("Timed Out"))).as("case matters").isEmpty();
		assertThat(ids(JobQuery.all().errorContains("%"))).as("% is a plain character").isEmpty();
		assertThat(ids(JobQuery.all().kind("nothing"))).isEmpty();
	}

	@Test
	void theTimeRangesSelectByCreatedAndByFinishedTimeFromTheirStartUpToTheirEnd() {
		List<Long> created = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			created.add(i % 2 == 0 ? jobs.succeeded("default", "t") : jobs.ready("default", "t"));
		}
		List<Job> all = fixture.queue().search(JobQuery.all()).jobs();
		Instant pivot = fixture.job(created.get(3)).createdAt();
		Instant finishedPivot = fixture.job(created.get(2)).finishedAt();

		assertThat(ids(JobQuery.all().createdBetween(pivot, null))).isEqualTo(matching(all, j -> !j.createdAt().isBefore(pivot)))
			.contains(created.get(3));
		assertThat(ids(JobQuery.all().createdBetween(null, pivot))).isEqualTo(matching(all, j -> j.createdAt().isBefore(pivot)))
			.doesNotContain(created.get(3));
		assertThat(ids(JobQuery.all().finishedBetween(finishedPivot, null)))
			.isEqualTo(matching(all, j -> j.finishedAt() != null && !j.finishedAt().isBefore(finishedPivot)))
			.contains(created.get(2))
			.doesNotContain(created.get(1), created.get(3), created.get(5));
		assertThat(ids(JobQuery.all().finishedBetween(finishedPivot, finishedPivot.plusNanos(1_000_000))))
			.contains(created.get(2));
	}

	@Test
	void pagesFollowEachOtherWithNoJobTwiceAndNoneLeftOutWhileJobsAreEnqueued() {
		List<Long> before = new ArrayList<>();
		for (int i = 0; i < 23; i++) {
			before.add(i % 3 == 0 ? jobs.dead("default", "p", "boom") : jobs.ready("default", "p"));
		}
		before.sort(Comparator.reverseOrder());

		assertThat(walk(JobQuery.all().kind("p").pageSize(5))).isEqualTo(before);
		List<Long> dead = ids(JobQuery.all().states(JobState.dead));
		assertThat(dead).hasSizeGreaterThan(10);
		assertThat(walk(JobQuery.all().states(JobState.dead).pageSize(2))).isEqualTo(dead);
	}

	@Test
	void aPageSaysWhetherAnotherFollows() {
		long first = jobs.ready("default", "p");
		long second = jobs.ready("default", "p");

		JobPage page = fixture.queue().search(JobQuery.all().pageSize(2));
		assertThat(page.jobs()).extracting(Job::id).containsExactly(second, first);
		assertThat(page.hasNext()).isFalse();
		JobPage firstOfTwo = fixture.queue().search(JobQuery.all().pageSize(1));
		assertThat(firstOfTwo.nextCursor()).isNotNull();
		assertThat(fixture.queue().search(JobQuery.all().pageSize(1), firstOfTwo.nextCursor()).jobs())
			.extracting(Job::id).containsExactly(first);
	}

	@Test
	void badInputIsRefusedWithAReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().pageSize(0))
			.withMessage("pageSize must be between 1 and 500, was 0");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().pageSize(501))
			.withMessage("pageSize must be between 1 and 500, was 501");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().states(new JobState[0]))
			.withMessage("states must name at least one state");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().queue("no spaces"))
			.withMessageStartingWith("queue must match");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().kind(" "))
			.withMessage("kind must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().errorContains(""))
			.withMessage("errorContains must not be blank");
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().createdBetween(null, null))
			.withMessage("createdBetween needs at least one bound");
		Instant now = Instant.now();
		assertThatIllegalArgumentException().isThrownBy(() -> JobQuery.all().finishedBetween(now, now))
			.withMessageStartingWith("finishedBetween needs its start before its end");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().search(null))
			.withMessageStartingWith("query must not be null");
		assertThatIllegalArgumentException().isThrownBy(() -> fixture.queue().search(JobQuery.all(), "not-a-cursor"))
			.withMessageStartingWith("cursor 'not-a-cursor' is not one that search returned");
	}

	@Test
	void theCountsHoldEveryStateByQueue() {
		jobs.ready("mail", "send");
		jobs.ready("mail", "send");
		jobs.running("mail", "send");
		jobs.succeeded("mail", "send");
		jobs.dead("reports", "build", "boom");
		jobs.cancelled("reports", "build");

		assertThat(fixture.queue().countByQueueAndState()).isEqualTo(Map.of(
				"mail", Map.of(JobState.ready, 2L, JobState.running, 1L, JobState.succeeded, 1L),
				"reports", Map.of(JobState.dead, 1L, JobState.cancelled, 1L)));
	}

	/** Every page of {@code query}, with a job enqueued between each page and the next. */
	private List<Long> walk(JobQuery query) {
		List<Long> seen = new ArrayList<>();
		JobPage page = fixture.queue().search(query);
		seen.addAll(page.jobs().stream().map(Job::id).toList());
		while (page.hasNext()) {
			jobs.ready("default", "p");
			jobs.dead("default", "p", "meanwhile");
			page = fixture.queue().search(query, page.nextCursor());
			seen.addAll(page.jobs().stream().map(Job::id).toList());
		}
		return seen;
	}

	private List<Long> ids(JobQuery query) {
		return fixture.queue().search(query.pageSize(500)).jobs().stream().map(Job::id).toList();
	}

	private static List<Long> matching(List<Job> jobs, Predicate<Job> condition) {
		return jobs.stream().filter(condition).map(Job::id).toList();
	}
}
