package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.store.ClaimedJob;

/**
 * Hands on a rate's starts as they leave its window. A key with a rate lets its next job start once a start of the
 * last period leaves the window, which no write announces: without this, the key waited for the next sweep, up to a
 * poll interval behind its rate (a 5/1s limit ran about 3 a second). So each start of a rated key asks for the key's
 * promotion once its period has passed, by which time the start has left the window on the database's clock too: the
 * claim counted it there before this node saw the job.
 */
final class RateWindows implements Consumer<ClaimedJob> {

	/** Past the period, for the database's timestamps, which round, to have the start out of the window. */
	static final Duration MARGIN = Duration.ofMillis(5);

	private final HandlerRegistry handlers;

	private final Supplier<KeyPromoter> promoter;

	RateWindows(HandlerRegistry handlers, Supplier<KeyPromoter> promoter) {
		this.handlers = handlers;
		this.promoter = promoter;
	}

	/** Called as the job's handler starts. */
	@Override
	public void accept(ClaimedJob job) {
		if (job.concurrencyKey() == null) {
			return;
		}
		KeyLimits limits = handlers.handlerFor(job.kind()).map(JobHandlerDefinition::keyLimits).orElse(KeyLimits.DEFAULTS);
		KeyPromoter current = promoter.get();
		if (limits.rateStarts() > 0 && current != null) {
			current.promoteIn(job.concurrencyKey(), limits.ratePeriod().plus(MARGIN));
		}
	}
}
