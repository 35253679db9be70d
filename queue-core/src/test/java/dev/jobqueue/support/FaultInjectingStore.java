package dev.jobqueue.support;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import dev.jobqueue.store.JobStore;

/**
 * A real store that throws what a test tells it to from named methods, a given number of times, and
 * otherwise answers as itself: the database is never mocked, only a failure put in front of it.
 */
public final class FaultInjectingStore {

	/** What the tests inject: an {@code Error} that is neither a database failure nor a dying JVM. */
	public static final class InjectedError extends Error {

		public InjectedError(String method) {
			super("injected into " + method);
		}
	}

	private final JobStore store;

	private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

	private final Map<String, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();

	private final Map<String, Supplier<Throwable>> failures = new ConcurrentHashMap<>();

	public FaultInjectingStore(JobStore store) {
		this.store = store;
	}

	/** The next {@code times} calls of {@code method} throw an {@link InjectedError}. */
	public FaultInjectingStore failNext(String method, int times) {
		return failNext(method, times, () -> new InjectedError(method));
	}

	/** The next {@code times} calls of {@code method} throw what {@code failure} makes. */
	public FaultInjectingStore failNext(String method, int times, Supplier<Throwable> failure) {
		failures.put(method, failure);
		counter(failuresLeft, method).set(times);
		return this;
	}

	/** Calls of {@code method} from now on answer normally. */
	public void heal(String method) {
		counter(failuresLeft, method).set(0);
	}

	/** How many times {@code method} was called, failed calls included. */
	public int calls(String method) {
		return counter(calls, method).get();
	}

	/** How many injected failures of {@code method} are still to come. */
	public int failuresLeft(String method) {
		return counter(failuresLeft, method).get();
	}

	/** The real store with every role in front of a proxy that counts its calls and throws what it was told to. */
	public JobStore store() {
		return StoreRoles.wrapped(store, (role, method, args) -> {
			counter(calls, method.getName()).incrementAndGet();
			if (counter(failuresLeft, method.getName()).getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
				throw failures.get(method.getName()).get();
			}
			return StoreRoles.invoke(role, method, args);
		});
	}

	private static AtomicInteger counter(Map<String, AtomicInteger> counters, String method) {
		return counters.computeIfAbsent(method, name -> new AtomicInteger());
	}
}
