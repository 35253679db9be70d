package dev.jobqueue.support;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.Set;
import java.util.concurrent.Callable;

import dev.jobqueue.store.JobStore;

/**
 * A real store with one of its operations wrapped by the test: to hang a heartbeat, or hold a claim's
 * answer back, while every other statement goes to the database as usual. The roles that declare the
 * operation are wrapped ({@link StoreRoles}); the others are the store's own.
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
		return StoreRoles.wrapped(store, Set.of(operation),
				(role, method, args) -> method.getName().equals(operation)
						? around.call(args, () -> invoke(role, method, args)) : invoke(role, method, args));
	}

	private static Object invoke(Object role, Method method, Object[] args) throws Exception {
		try {
			return method.invoke(role, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException() instanceof Exception cause ? cause : ex;
		}
	}
}
