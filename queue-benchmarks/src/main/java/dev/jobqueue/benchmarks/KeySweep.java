package dev.jobqueue.benchmarks;

import java.time.Duration;
import java.util.stream.LongStream;

import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.PromotionStore;

/**
 * jobqueue only: what the promoter's sweep costs with {@code --jobs} busy keys, each of limit 1 with one job holding
 * its slot and one waiting. Times {@link #STRETCHES} stretches of {@link #STRETCH_KEYS} keys (what the sweep
 * examines at each turn of its timer) and {@link #WALKS} whole walks over every key (what a reap asks for), each
 * after one unmeasured, on a table no worker touches: every key is busy, so no stretch promotes anything.
 */
final class KeySweep {

	static final int STRETCH_KEYS = 1000;

	static final int STRETCHES = 21;

	static final int WALKS = 3;

	private final Report report;

	private final int keys;

	KeySweep(Report report, int keys) {
		this.report = report;
		this.keys = keys;
	}

	void run(Database database) {
		JobqueueContender contender = new JobqueueContender(database, keys);
		contender.reset();
		for (long first = 0; first < 2L * keys; first += 1_000) {
			contender.enqueueBulk(LongStream.range(first, Math.min(2L * keys, first + 1_000)).toArray());
		}
		PromotionStore promotions = JobStores.forDataSource(database.dataSource()).promotions();
		waitUntilEachKeyHoldsOne(database);
		double[] stretches = new double[STRETCHES + 1];
		String after = "";
		for (int i = 0; i < stretches.length; i++) {
			long start = System.nanoTime();
			String last = stretch(promotions, after);
			stretches[i] = (System.nanoTime() - start) / 1e6;
			after = last == null ? "" : last;
		}
		double[] walks = new double[WALKS + 1];
		for (int i = 0; i < walks.length; i++) {
			long start = System.nanoTime();
			String from = "";
			do {
				from = stretch(promotions, from);
			}
			while (from != null);
			walks[i] = (System.nanoTime() - start) / 1e6;
		}
		contender.reset();
		report.figure("key-sweep", "jobqueue", "stretch ms", Summary.medianAfter(stretches, 1), "ms",
				String.format("median of %d stretches of %d keys after 1 unmeasured, %d busy keys; every stretch %s",
						STRETCHES, STRETCH_KEYS, keys, Summary.rounded(stretches)));
		report.figure("key-sweep", "jobqueue", "whole walk ms", Summary.medianAfter(walks, 1), "ms",
				String.format("median of %d walks over %d busy keys after 1 unmeasured; every walk %s", WALKS, keys,
						Summary.rounded(walks)));
	}

	private void waitUntilEachKeyHoldsOne(Database database) {
		long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
		while (database.jdbc().sql("SELECT count(*) FROM jobqueue_job WHERE state = 'ready'").query(Long.class).single()
				< keys) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("the enqueues' promotions did not make one job of each key ready");
			}
			sleep();
		}
	}

	/** One stretch after {@code after}, which over busy keys promotes nothing; returns its last key, or null. */
	private static String stretch(PromotionStore promotions, String after) {
		PromotionStore.Stretch stretch = promotions.promoteWaiting(after, STRETCH_KEYS);
		if (!stretch.queues().isEmpty()) {
			throw new IllegalStateException("a stretch over busy keys promoted jobs of " + stretch.queues());
		}
		return stretch.lastKey();
	}

	private static void sleep() {
		try {
			Thread.sleep(200);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}
}
