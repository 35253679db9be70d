package dev.jobqueue.store;

import java.time.Instant;

/**
 * A schedule's row, as every node shares it.
 *
 * @param timing the timing as the node that last defined the schedule declared it (see
 * {@code Schedule.timing()})
 * @param nextFireAt the next fire time not yet enqueued, or {@code null} while the schedule is disabled
 * @param lastFireAt the latest fire time enqueued, or {@code null} before the first
 * @param version grows by one at every change: the value a compare-and-set names
 */
public record ScheduleState(String name, String timing, Instant nextFireAt, Instant lastFireAt, long version) {
}
