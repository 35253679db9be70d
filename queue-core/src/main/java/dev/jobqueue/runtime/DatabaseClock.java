package dev.jobqueue.runtime;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * The database's clock, as this machine's clock plus their offset: what decides fire times, so that nodes whose
 * clocks disagree agree on when a schedule is due, as they already agree on leases and due times. The offset is
 * read again once it is older than {@link #REFRESH}, so a pass costs at most one more statement, and a local clock
 * that is stepped is followed within that time.
 */
final class DatabaseClock extends Clock {

	static final Duration REFRESH = Duration.ofSeconds(1);

	private final Clock local;

	private final Supplier<Instant> database;

	private Duration offset;

	private long measuredAt;

	DatabaseClock(Clock local, Supplier<Instant> database) {
		this.local = local;
		this.database = database;
	}

	@Override
	public synchronized Instant instant() {
		long now = System.nanoTime();
		if (offset == null || now - measuredAt > REFRESH.toNanos()) {
			// Measured against the local time halfway through the read, so the round trip splits evenly.
			Instant before = local.instant();
			Instant read = database.get();
			Instant after = local.instant();
			offset = Duration.between(before.plus(Duration.between(before, after).dividedBy(2)), read);
			measuredAt = now;
		}
		return local.instant().plus(offset);
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("the database's clock is read in UTC");
	}
}
