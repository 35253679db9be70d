package dev.jobqueue.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.jobqueue.store.JobStore;
import dev.jobqueue.support.TestDatabase;

/**
 * The maintenance lease at the store: one holder at a time by the database's clock, renewed by its holder,
 * taken by another once expired or released.
 */
public abstract class MaintenanceLeaseContractTest {

	private static final Duration LONG = Duration.ofMinutes(1);

	private static final Duration SHORT = Duration.ofMillis(300);

	protected abstract TestDatabase database();

	private JobStore store;

	@BeforeEach
	void setUp() {
		database().reset();
		store = database().store();
	}

	@Test
	void theFirstOwnerTakesAFreeLeaseAndASecondIsRefusedWhileItHolds() {
		assertThat(store.maintenance().holdMaintenance("a", LONG)).isTrue();

		assertThat(store.maintenance().holdMaintenance("b", LONG)).isFalse();
		assertThat(store.maintenance().holdMaintenance("a", LONG)).as("renewed by its holder").isTrue();
		assertThat(store.maintenance().holdMaintenance("b", LONG)).isFalse();
	}

	@Test
	void ofManyOwnersAskingAtOnceExactlyOneHoldsTheLease() throws Exception {
		ExecutorService threads = Executors.newFixedThreadPool(8);
		try {
			List<Callable<Boolean>> asks = IntStream.range(0, 8)
				.<Callable<Boolean>>mapToObj(i -> () -> store.maintenance().holdMaintenance("owner-" + i, LONG))
				.toList();
			List<Boolean> held = threads.invokeAll(asks).stream().map(MaintenanceLeaseContractTest::get).toList();

			assertThat(held).containsOnlyOnce(true);
		}
		finally {
			threads.shutdownNow();
		}
	}

	@Test
	void aRenewalKeepsTheLeaseFromExpiringAndAnotherOwnerTakesItOnceItExpires() {
		assertThat(store.maintenance().holdMaintenance("a", SHORT)).isTrue();
		assertThat(store.maintenance().holdMaintenance("a", LONG)).as("renewed for longer").isTrue();
		assertThat(store.maintenance().holdMaintenance("b", SHORT)).isFalse();
		assertThat(store.maintenance().holdMaintenance("a", SHORT)).isTrue();

		await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50))
			.until(() -> store.maintenance().holdMaintenance("b", LONG));
		assertThat(store.maintenance().holdMaintenance("a", LONG)).as("its former holder, once taken over").isFalse();
	}

	@Test
	void aReleasedLeaseIsTakenAtOnceAndAReleaseByAnotherOwnerChangesNothing() {
		assertThat(store.maintenance().holdMaintenance("a", LONG)).isTrue();

		store.maintenance().releaseMaintenance("b");
		assertThat(store.maintenance().holdMaintenance("b", LONG)).isFalse();

		store.maintenance().releaseMaintenance("a");
		assertThat(store.maintenance().holdMaintenance("b", LONG)).isTrue();
		assertThat(store.maintenance().holdMaintenance("a", LONG)).isFalse();
	}

	private static Boolean get(Future<Boolean> answer) {
		try {
			return answer.get();
		}
		catch (Exception ex) {
			throw new AssertionError(ex);
		}
	}
}
