package dev.jobqueue.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Assumptions;

/**
 * A worker JVM's wall clock set off by a fixed amount, the way a machine whose clock drifted has it: libfaketime
 * preloaded into the process shifts every read of the clock (what {@code Instant.now()} and {@code Clock.systemUTC()}
 * read) by the same constant. The monotonic clock ({@code System.nanoTime()}) moves by it too, which changes no
 * length the JVM measures, as they are differences; libfaketime's option to leave it alone slows a JVM tenfold. The
 * database's server keeps its own, true clock.
 *
 * <p>Without libfaketime the scenario is skipped with a notice, except under {@code CI=true}, where that is a
 * failure ({@code .ci/run} installs it).
 */
final class SkewedClock {

	private static final List<Path> LIBRARIES = List.of(
			Path.of("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"),
			Path.of("/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1"),
			Path.of("/usr/lib/faketime/libfaketime.so.1"));

	private SkewedClock() {
	}

	/** The environment of a process whose wall clock runs {@code skew} ahead (negative: behind), whole seconds. */
	static Map<String, String> environment(Duration skew) {
		return Map.of("LD_PRELOAD", library().toString(), "FAKETIME", String.format("%+ds", skew.toSeconds()));
	}

	private static Path library() {
		return LIBRARIES.stream().filter(Files::isReadable).findFirst().orElseGet(() -> {
			String problem = "No libfaketime to skew a worker's clock (looked for " + LIBRARIES + ")";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(problem + "; under CI=true this is a failure, not a skip");
			}
			Assumptions.abort(problem + "; install it (apt-get install libfaketime) to run this scenario");
			return null;
		});
	}
}
