package dev.jobqueue.autoconfigure.app;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.jobqueue.JobContext;
import dev.jobqueue.spring.JobHandler;

/** The test application's handlers; they record what they were given. */
public class TestJobHandlers {

	public final List<Welcome> welcomed = new CopyOnWriteArrayList<>();

	public final List<Boolean> auditRanInTransaction = new CopyOnWriteArrayList<>();

	private final JdbcClient jdbc;

	public TestJobHandlers(JdbcClient jdbc) {
		this.jdbc = jdbc;
	}

	@JobHandler("welcome")
	public String welcome(Welcome welcome) {
		welcomed.add(welcome);
		return "welcomed " + welcome.email();
	}

	/**
	 * Writes, then fails on its first attempt: the write of that attempt must roll back with it, so one
	 * row is left after the retry succeeds.
	 */
	@JobHandler(kind = "audit", transactional = true)
	public void audit(String note, JobContext context) {
		auditRanInTransaction.add(TransactionSynchronizationManager.isActualTransactionActive());
		jdbc.sql("INSERT INTO app_audit (job_id, note) VALUES (:id, :note)")
			.param("id", context.jobId())
			.param("note", note)
			.update();
		if (context.attempt() == 1) {
			throw new IllegalStateException("audit service unavailable");
		}
	}
}
