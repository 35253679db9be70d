package dev.jobqueue.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.jobqueue.store.JobStore;

/**
 * A real store with one of its operations wrapped by the test: to hang a heartbeat, or hold a claim's
 * answer back, while every other statement goes to the database as usual.
 */
public final class InterceptedStore {

	/** What runs in place of the intercepted operation; {@code proceed} sends it to the real store. */
	@FunctionalInterface
	public interface Around {

		Object call(Object[] args, Callable<Object> proceed) throws Exception;
	}

	private InterceptedStore() {
	}

	public static JobStore around(JobStore store, String operation, Around around) {
		return around(store, Set.of(operation), around);
	}

	/**
	 * The poller's claims wrapped, whichever way the store claims for a poller: {@code claim}, or
	 * {@code claimConfirmed} where its claims confirm themselves (MySQL).
	 */
	public static JobStore aroundClaims(JobStore store, Around around) {
		return around(store, Set.of("claim", "claimConfirmed"), around);
	}

	private static JobStore around(JobStore store, Set<String> operations, Around around) {
		return (JobStore) Proxy.newProxyInstance(JobStore.class.getClassLoader(), new Class<?>[] { JobStore.class },
				(proxy, method, args) -> operations.contains(method.getName())
						? around.call(args, () -> invoke(store, method, args)) : invoke(store, method, args));
	}

	private static Object invoke(JobStore store, Method method, Object[] args) throws Exception {
		try {
			return method.invoke(store, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException() instanceof Exception cause ? cause : ex;
		}
	}
}
