package dev.jobqueue.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A clock that stands where a test puts it. */
public final class TestClock extends Clock {

	private volatile Instant now;

	public TestClock(String start) {
		this.now = Instant.parse(start);
	}

	public void set(String instant) {
		now = Instant.parse(instant);
	}

	public void advance(Duration duration) {
		now = now.plus(duration);
	}

	@Override
	public Instant instant() {
		return now;
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("a test clock has one zone");
	}
}
