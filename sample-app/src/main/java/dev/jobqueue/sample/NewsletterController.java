package dev.jobqueue.sample;

import java.util.List;

import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import dev.jobqueue.Batch;
import dev.jobqueue.BatchCounts;
import dev.jobqueue.EnqueuedBatch;
import dev.jobqueue.JobQueue;

/**
 * {@code POST /newsletters} sends an issue to every registered user as one batch: a job per copy, and a report that
 * runs once all of them have finished. {@code GET /newsletters/{batchId}} shows how far the batch has come.
 */
@RestController
class NewsletterController {

	private final JdbcClient jdbc;

	private final JobQueue jobs;

	NewsletterController(JdbcClient jdbc, JobQueue jobs) {
		this.jdbc = jdbc;
		this.jobs = jobs;
	}

	/**
	 * The batch is enqueued all or nothing, in a transaction of its own. No user, no batch: a 409. No transaction
	 * around the read: on SQLite a transaction that reads first and then writes fails when another connection wrote
	 * in between (its snapshot cannot become a write), and a user registered meanwhile gets the next issue.
	 */
	@PostMapping("/newsletters")
	ResponseEntity<Sending> send(@RequestBody Issue issue) {
		List<String> emails = jdbc.sql("SELECT email FROM app_user ORDER BY email").query(String.class).list();
		if (emails.isEmpty()) {
			return ResponseEntity.status(HttpStatus.CONFLICT).build();
		}
		Batch batch = jobs.batch();
		emails.forEach(email -> batch.add("send-newsletter", new Newsletter(issue.title(), email)));
		EnqueuedBatch enqueued = batch.onFinish("newsletter-report", new NewsletterReport(issue.title())).enqueue();
		return ResponseEntity.status(HttpStatus.ACCEPTED)
			.body(new Sending(enqueued.id(), enqueued.jobIds().size(), enqueued.onFinish().orElseThrow()));
	}

	@GetMapping("/newsletters/{batchId}")
	ResponseEntity<BatchCounts> progress(@PathVariable long batchId) {
		return ResponseEntity.of(jobs.batchCounts(batchId));
	}

	record Issue(String title) {
	}

	/** What sending answers: the batch, how many copies it holds, and the report job that follows them. */
	record Sending(long batchId, int copies, long reportJob) {
	}
}
