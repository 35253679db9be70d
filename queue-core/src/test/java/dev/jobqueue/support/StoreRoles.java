package dev.jobqueue.support;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Set;

import dev.jobqueue.store.JobStore;

/**
 * A {@link JobStore} rebuilt with some of its roles wrapped: for the tests that put something in front of a
 * store's operations, found by name whichever role declares them.
 */
public final class StoreRoles {

	/** What a wrapped role runs for each call; {@code target} is the real role. */
	@FunctionalInterface
	public interface Handler {

		Object invoke(Object target, Method method, Object[] args) throws Throwable;
	}

	private StoreRoles() {
	}

	/** {@code store} with every role wrapped by {@code handler}. */
	public static JobStore wrapped(JobStore store, Handler handler) {
		return rebuilt(store, null, handler);
	}

	/** {@code store} with the roles that declare any of {@code operations} wrapped by {@code handler}. */
	public static JobStore wrapped(JobStore store, Set<String> operations, Handler handler) {
		return rebuilt(store, operations, handler);
	}

	/** Calls {@code method} on {@code target}, throwing what it threw. */
	public static Object invoke(Object target, Method method, Object[] args) throws Throwable {
		try {
			return method.invoke(target, args);
		}
		catch (InvocationTargetException ex) {
			throw ex.getTargetException();
		}
	}

	private static JobStore rebuilt(JobStore store, Set<String> operations, Handler handler) {
		RecordComponent[] components = JobStore.class.getRecordComponents();
		Object[] values = new Object[components.length];
		try {
			for (int i = 0; i < components.length; i++) {
				Class<?> type = components[i].getType();
				Object role = components[i].getAccessor().invoke(store);
				values[i] = type.isInterface() && (operations == null || declaresAny(type, operations))
						? proxy(type, role, handler) : role;
			}
			Constructor<JobStore> canonical = JobStore.class.getDeclaredConstructor(
					Arrays.stream(components).map(RecordComponent::getType).toArray(Class<?>[]::new));
			return canonical.newInstance(values);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Could not rebuild the store", ex);
		}
	}

	private static boolean declaresAny(Class<?> type, Set<String> operations) {
		return Arrays.stream(type.getMethods()).anyMatch(method -> operations.contains(method.getName()));
	}

	private static Object proxy(Class<?> type, Object role, Handler handler) {
		return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] { type },
				(proxy, method, args) -> handler.invoke(role, method, args));
	}
}
