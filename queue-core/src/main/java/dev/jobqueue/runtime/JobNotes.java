package dev.jobqueue.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import dev.jobqueue.JobLog;
import dev.jobqueue.JobLogLimits;
import dev.jobqueue.store.ClaimedJob;
import dev.jobqueue.store.StepRows;
import dev.jobqueue.store.StepStore;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * A handler's log lines and progress ({@link dev.jobqueue.JobContext#log}, {@link dev.jobqueue.JobContext#progress}),
 * kept with the job as notes in the step table: each execution's lines in chunks, a JSON array per write, named
 * {@code note:log:<attempt>:<start>:<chunk>} with the execution's start in epoch milliseconds (an attempt a crash
 * gave back runs again under the same number), and its progress in {@code note:progress:<attempt>}. An execution keeps them in memory and
 * writes what is new at most once per heartbeat interval, outside any transaction of the handler's thread, and once
 * more when its attempt ends: at most two statements per interval, whatever the handler logs.
 */
final class JobNotes {

	private static final Logger log = LoggerFactory.getLogger(JobNotes.class);

	private static final String LOG = StepRows.NOTE_PREFIX + "log:";

	private static final String PROGRESS = StepRows.NOTE_PREFIX + "progress:";

	private final StepStore store;

	private final JsonMapper json;

	private final Duration interval;

	private final Clock clock;

	/**
	 * @param store the runtime's own store: notes are never part of a handler's transaction
	 * @param interval the least time between two writes of one execution's notes: the heartbeat interval
	 */
	JobNotes(StepStore store, JsonMapper json, Duration interval, Clock clock) {
		this.store = store;
		this.json = json;
		this.interval = interval;
		this.clock = clock;
	}

	/** The notes of one execution of {@code job}, written as it goes. */
	Notebook open(ClaimedJob job) {
		return new Notebook(job);
	}

	/** The log a job's {@code notes} hold: every attempt's lines in order, with its latest attempt's progress. */
	static JobLog read(JsonMapper json, Map<String, String> notes) {
		List<String> chunks = notes.keySet().stream().filter(name -> name.startsWith(LOG))
			.sorted(Comparator.comparing(JobNotes::attemptAndChunk, Arrays::compare)).toList();
		List<JobLog.Line> lines = new ArrayList<>();
		for (String chunk : chunks) {
			int attempt = (int) attemptAndChunk(chunk)[0];
			for (JsonNode line : json.readTree(notes.get(chunk))) {
				lines.add(new JobLog.Line(attempt, Instant.parse(line.get("at").asString()), line.get("text").asString()));
			}
		}
		JobLog.Progress progress = notes.entrySet().stream().filter(note -> note.getKey().startsWith(PROGRESS))
			.map(note -> progress(json, note.getKey(), note.getValue()))
			.max(Comparator.comparingInt(JobLog.Progress::attempt))
			.orElse(null);
		return new JobLog(lines, progress);
	}

	/** Attempt, start and chunk: the order the lines were logged in. */
	private static long[] attemptAndChunk(String name) {
		String[] parts = name.substring(LOG.length()).split(":");
		return new long[] { Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]) };
	}

	private static JobLog.Progress progress(JsonMapper json, String name, String text) {
		JsonNode node = json.readTree(text);
		return new JobLog.Progress(Integer.parseInt(name.substring(PROGRESS.length())), node.get("done").asLong(),
				node.get("total").asLong(), Instant.parse(node.get("at").asString()));
	}

	/** One execution's notes: used by its handler's thread only. */
	final class Notebook {

		private final ClaimedJob job;

		/** The first part of its chunks' names: attempt and start. */
		private final String chunks;

		private final List<ObjectNode> pending = new ArrayList<>();

		private int kept;

		private int dropped;

		private int chunk;

		private ObjectNode progress;

		private Instant lastWrite;

		private Notebook(ClaimedJob job) {
			this.job = job;
			this.lastWrite = clock.instant();
			this.chunks = LOG + job.attempt() + ":" + lastWrite.toEpochMilli() + ":";
		}

		void log(String line) {
			if (line == null) {
				throw new IllegalArgumentException("a log line must not be null");
			}
			if (kept == JobLogLimits.MAX_LINES) {
				dropped++;
				return;
			}
			kept++;
			pending.add(line(line.length() > JobLogLimits.MAX_LINE_LENGTH
					? line.substring(0, JobLogLimits.MAX_LINE_LENGTH) : line));
			writeIfDue();
		}

		void progress(long done, long total) {
			JobLogLimits.checkProgress(done, total);
			progress = json.createObjectNode().put("done", done).put("total", total)
				.put("at", clock.instant().toString());
			writeIfDue();
		}

		private ObjectNode line(String text) {
			return json.createObjectNode().put("at", clock.instant().toString()).put("text", text);
		}

		private void writeIfDue() {
			if (!clock.instant().isBefore(lastWrite.plus(interval))
					&& !TransactionSynchronizationManager.isActualTransactionActive()) {
				write();
			}
		}

		/** Writes what is new; at the attempt's end, with the count of the lines past the bound. */
		void end() {
			if (dropped > 0) {
				pending.add(line(dropped + " more line(s) not kept: an attempt keeps " + JobLogLimits.MAX_LINES));
				dropped = 0;
			}
			write();
		}

		/** A note that cannot be written is lost, with a warning: it must never fail the job. */
		private void write() {
			lastWrite = clock.instant();
			try {
				if (!pending.isEmpty()) {
					ArrayNode lines = json.createArrayNode().addAll(pending);
					store.note(job.id(), job.attempt(), chunks + chunk++, json.writeValueAsString(lines));
					pending.clear();
				}
				if (progress != null) {
					store.note(job.id(), job.attempt(), PROGRESS + job.attempt(), json.writeValueAsString(progress));
					progress = null;
				}
			}
			catch (RuntimeException ex) {
				log.warn("Log lines or progress of job {} ({}) could not be written: {}", job.id(), job.kind(),
						ex.toString());
				pending.clear();
				progress = null;
			}
		}
	}
}
