package dev.jobqueue.store;

import java.util.Comparator;
import java.util.List;

/** The order in which claimed jobs are handed to workers: the order the claim statement picks them in. */
public final class ClaimOrder {

	private static final Comparator<ClaimedJob> ORDER = Comparator.comparingInt(ClaimedJob::priority)
		.thenComparing(ClaimedJob::runAt)
		.thenComparingLong(ClaimedJob::id);

	private ClaimOrder() {
	}

	public static List<ClaimedJob> sort(List<ClaimedJob> jobs) {
		return jobs.stream().sorted(ORDER).toList();
	}
}
