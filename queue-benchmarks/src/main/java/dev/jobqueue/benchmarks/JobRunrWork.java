package dev.jobqueue.benchmarks;

import java.util.function.LongConsumer;

/** The no-op job JobRunr runs: JobRunr stores a call to this static method with its argument. */
public final class JobRunrWork {

	static volatile LongConsumer sink = data -> {
	};

	private JobRunrWork() {
	}

	public static void execute(Long data) {
		sink.accept(data);
	}
}
