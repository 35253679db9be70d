package dev.jobqueue.sample;

import java.time.Duration;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import dev.jobqueue.AwaitTimeoutException;
import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.Job;
import dev.jobqueue.JobQueue;
import dev.jobqueue.JobState;
import dev.jobqueue.Unique;

/**
 * {@code POST /reports/now} runs the user-count report at once, on whichever worker takes it, and answers
 * with its result: enqueue, then await. Requests within the same minute share one report, running or done: the
 * report's job is unique per minute, also once it has succeeded. The request waits at most ten seconds; a report that
 * takes longer goes on, and the answer is a 504 naming the job to look at later ({@code GET /jobs/{id}}).
 */
@RestController
class ReportController {

	private static final Duration PATIENCE = Duration.ofSeconds(10);

	private static final Unique ONE_A_MINUTE = Unique.byKey("user-count").per(Duration.ofMinutes(1))
		.alsoFinished(JobState.succeeded);

	private final JobQueue jobs;

	ReportController(JobQueue jobs) {
		this.jobs = jobs;
	}

	@PostMapping("/reports/now")
	ResponseEntity<UserCount> reportNow() {
		long id = jobs.enqueueUnique("user-count-report", null, EnqueueOptions.defaults().unique(ONE_A_MINUTE)).id();
		Job job = jobs.await(id, PATIENCE);
		if (job.state() != JobState.succeeded) {
			return ResponseEntity.internalServerError().build();
		}
		return ResponseEntity.ok(new UserCount(id, jobs.result(id, Long.class).orElseThrow()));
	}

	@ExceptionHandler(AwaitTimeoutException.class)
	@ResponseStatus(HttpStatus.GATEWAY_TIMEOUT)
	String notYet(AwaitTimeoutException ex) {
		return ex.getMessage() + "; see GET /jobs/" + ex.jobId();
	}

	record UserCount(long jobId, long users) {
	}
}
