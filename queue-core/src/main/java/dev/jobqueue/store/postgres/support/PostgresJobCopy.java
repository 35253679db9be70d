package dev.jobqueue.store.postgres.support;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import javax.sql.DataSource;

import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.springframework.jdbc.datasource.DataSourceUtils;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.SqlFailures;

/**
 * Writes new jobs without a unique key straight into {@code jobqueue_job} with {@code COPY … FROM STDIN}
 * in text format, on the connection of the transaction under way. COPY cannot evaluate expressions, so
 * each row comes with its id, run_at and created_at already known. The rows stream out in chunks of about
 * {@link #CHUNK_CHARS} characters, so a large batch never sits in memory as one text.
 */
public final class PostgresJobCopy {

	public static final int CHUNK_CHARS = 64 * 1024;

	private final DataSource dataSource;

	private final SQLExceptionTranslator translator;

	public PostgresJobCopy(DataSource dataSource) {
		this.dataSource = dataSource;
		this.translator = new SQLErrorCodeSQLExceptionTranslator(dataSource);
	}

	/**
	 * Copies the jobs at {@code indexes} of {@code jobs}, each with the id at the same index of {@code ids}. The
	 * column {@code has_dependents} is copied only when one of the jobs has dependents (a batch's), so that a copy of
	 * other jobs is the statement it always was.
	 */
	public void copy(List<NewJob> jobs, int[] indexes, Long[] ids, Instant now) {
		boolean dependedOn = Arrays.stream(indexes).anyMatch(index -> jobs.get(index).hasDependents());
		String sql = """
				COPY jobqueue_job (id, queue, kind, payload, payload_version, state, priority, run_at, max_attempts,
				                   created_at, concurrency_key, concurrency_limit, concurrency_dead_holds,
				                   concurrency_rate_millis, trace_context%s) FROM STDIN""".formatted(
				dependedOn ? ", has_dependents" : "");
		Connection connection = DataSourceUtils.getConnection(dataSource);
		try {
			CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql);
			try {
				writeRows(copy, jobs, indexes, ids, now, dependedOn);
				copy.endCopy();
			}
			finally {
				if (copy.isActive()) {
					copy.cancelCopy();
				}
			}
		}
		catch (SQLException ex) {
			throw SqlFailures.translate(translator, "COPY of new jobs", sql, ex);
		}
		finally {
			DataSourceUtils.releaseConnection(connection, dataSource);
		}
	}

	/** @param dependedOn whether the rows carry {@code has_dependents}: only when a job of them has dependents */
	private static void writeRows(CopyIn copy, List<NewJob> jobs, int[] indexes, Long[] ids, Instant now,
			boolean dependedOn) throws SQLException {
		StringBuilder chunk = new StringBuilder(CHUNK_CHARS + 1024);
		RunAtText runAtText = new RunAtText(now);
		String createdAt = now.toString();
		for (int index : indexes) {
			NewJob job = jobs.get(index);
			chunk.append(ids[index].longValue()).append('\t');
			CopyText.appendEscaped(chunk, job.queue());
			chunk.append('\t');
			CopyText.appendEscaped(chunk, job.kind());
			chunk.append('\t');
			CopyText.appendEscaped(chunk, job.payload());
			chunk.append('\t').append(job.payloadVersion()).append('\t').append(job.initialState()).append('\t')
				.append(job.priority()).append('\t').append(runAtText.of(job)).append('\t').append(job.maxAttempts())
				.append('\t').append(createdAt).append('\t');
			appendKeySlot(chunk, job.keySlot());
			chunk.append('\t');
			appendNullable(chunk, job.traceContext());
			if (dependedOn) {
				chunk.append('\t').append(job.hasDependents() ? 't' : 'f');
			}
			chunk.append('\n');
			if (chunk.length() >= CHUNK_CHARS) {
				send(copy, chunk);
			}
		}
		send(copy, chunk);
	}

	/** The four concurrency columns: {@code \N} (COPY's null) for a job without a key, and for no rate. */
	private static void appendKeySlot(StringBuilder chunk, NewJob.KeySlot slot) {
		if (slot == null) {
			chunk.append("\\N\t\\N\tf\t\\N");
			return;
		}
		CopyText.appendEscaped(chunk, slot.key());
		chunk.append('\t').append(slot.limit()).append('\t').append(slot.deadHolds() ? 't' : 'f').append('\t');
		chunk.append(slot.rateMillis() == null ? "\\N" : slot.rateMillis().toString());
	}

	private static void appendNullable(StringBuilder chunk, String value) {
		if (value == null) {
			chunk.append("\\N");
		}
		else {
			CopyText.appendEscaped(chunk, value);
		}
	}

	/**
	 * The run_at the insert statement would compute, on the same clock, as COPY text: {@code now} is the
	 * database's time the batch's ids were drawn at; an explicit run_at is kept to the millisecond as the unnest statement
	 * keeps it. The jobs of a batch mostly share one run_at, and formatting an instant costs more than
	 * the rest of a row, so the last text is reused while the instant is the same.
	 */
	private static final class RunAtText {

		private final Instant now;

		private Instant last;

		private String lastText;

		RunAtText(Instant now) {
			this.now = now;
		}

		String of(NewJob job) {
			Instant runAt = job.runAt() != null ? Instant.ofEpochMilli(job.runAt().toEpochMilli())
					: now.plusMillis(job.delayMillis());
			if (!runAt.equals(last)) {
				last = runAt;
				lastText = runAt.toString();
			}
			return lastText;
		}
	}

	private static void send(CopyIn copy, StringBuilder chunk) throws SQLException {
		byte[] bytes = chunk.toString().getBytes(StandardCharsets.UTF_8);
		copy.writeToCopy(bytes, 0, bytes.length);
		chunk.setLength(0);
	}
}
