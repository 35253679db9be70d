package dev.jobqueue.autoconfigure;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * A value read again only once it is {@code ttl} old. Callers that arrive while it is being read wait
 * for that read instead of starting their own.
 */
final class TimedCache<T> {

	private final Clock clock;

	private final Duration ttl;

	private final Supplier<T> source;

	private T value;

	private Instant readAt;

	TimedCache(Clock clock, Duration ttl, Supplier<T> source) {
		this.clock = clock;
		this.ttl = ttl;
		this.source = source;
	}

	synchronized T get() {
		Instant now = clock.instant();
		if (readAt == null || !now.isBefore(readAt.plus(ttl))) {
			value = source.get();
			readAt = now;
		}
		return value;
	}
}
