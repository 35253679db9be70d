package dev.jobqueue.runtime;

import java.time.Instant;
import java.util.Optional;

import dev.jobqueue.Job;
import dev.jobqueue.JobExplanation.Reason;
import dev.jobqueue.JobExplanation;
import dev.jobqueue.store.ExplainReads;
import dev.jobqueue.store.KeySlots;

/**
 * Why a blocked job waits for its concurrency key, counted as the promotion counts (decision record 019):
 * its slots are held; else its rate's period is used up by recent starts (or by its own last
 * start, for a retry); else a slot is free and the next promotion hands it out.
 */
final class KeyExplainer {

	private final ExplainReads store;

	KeyExplainer(ExplainReads store) {
		this.store = store;
	}

	JobExplanation explain(Job job, Instant now) {
		Optional<KeySlots> found = store.keySlots(job.concurrencyKey(), job.id());
		// No blocked job of the key: this one was promoted since it was read.
		if (found.isEmpty()) {
			return awaitingPromotion(job, 0);
		}
		KeySlots slots = found.get();
		if (slots.holderCount() >= slots.limit()) {
			return held(job, slots);
		}
		if (rateLimited(job, slots, now)) {
			return rateLimited(job, slots);
		}
		return awaitingPromotion(job, slots.waitingBefore());
	}

	private static JobExplanation held(Job job, KeySlots slots) {
		String held = slots.limit() == 1 ? "its slot is held" : "its " + slots.limit() + " slots are held";
		return new JobExplanation(job.id(), Reason.CONCURRENCY_KEY_HELD,
				"Job %d waits for concurrency key '%s': %s by %s.%s".formatted(job.id(), job.concurrencyKey(), held,
						ExplainText.jobs(slots.holders(), slots.holderCount()), waitingBefore(slots.waitingBefore())));
	}

	/** The window is full, or the job itself started within it (a retry of a rate-limited key waits blocked). */
	private static boolean rateLimited(Job job, KeySlots slots, Instant now) {
		if (slots.rate() == null) {
			return false;
		}
		boolean ownStart = job.startedAt() != null && job.startedAt().isAfter(now.minus(slots.rate()));
		return ownStart || slots.holderCount() + slots.recentStarts() >= slots.limit();
	}

	private static JobExplanation rateLimited(Job job, KeySlots slots) {
		String period = ExplainText.duration(slots.rate());
		Instant first = slots.oldestRecentStart() != null ? slots.oldestRecentStart() : job.startedAt();
		return new JobExplanation(job.id(), Reason.RATE_LIMITED, ("Job %d waits for concurrency key '%s', rate-limited "
				+ "to %s per %s: %s of the key started within the last %s, the first at %s.").formatted(job.id(),
						job.concurrencyKey(), ExplainText.count(slots.limit(), "start"), period,
						ExplainText.count(slots.recentStarts(), "job"), period, ExplainText.time(first)));
	}

	private static JobExplanation awaitingPromotion(Job job, long waitingBefore) {
		return new JobExplanation(job.id(), Reason.AWAITING_PROMOTION, ("Job %d waits for concurrency key '%s', which has "
				+ "a free slot: the key's next promotion hands its free slots to its waiting "
				+ "jobs in enqueue order.%s").formatted(job.id(), job.concurrencyKey(), waitingBefore(waitingBefore)));
	}

	private static String waitingBefore(long count) {
		if (count == 0) {
			return "";
		}
		return count == 1 ? " 1 earlier job of the key waits before it."
				: " " + count + " earlier jobs of the key wait before it.";
	}
}
