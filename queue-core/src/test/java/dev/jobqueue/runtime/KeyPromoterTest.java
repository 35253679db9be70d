package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.jobqueue.store.PromotionStore;

class KeyPromoterTest {

	/** A store whose sweep always fails, as during an outage; every other call is a mistake here. */
	private static PromotionStore failingSweeps(AtomicInteger sweeps) {
		return (PromotionStore) Proxy.newProxyInstance(PromotionStore.class.getClassLoader(),
				new Class<?>[] { PromotionStore.class },
				(proxy, method, args) -> {
					if (method.getName().equals("promoteWaiting")) {
						sweeps.incrementAndGet();
						throw new DataAccessResourceFailureException("database unreachable");
					}
					throw new UnsupportedOperationException(method.getName());
				});
	}

	/** Promotions that count sweeps and promotions, each of which makes nothing ready. */
	private static PromotionStore counting(AtomicInteger sweeps, AtomicInteger promotions) {
		return new PromotionStore() {
			@Override
			public Set<String> promote(Collection<String> keys) {
				promotions.incrementAndGet();
				return Set.of();
			}

			@Override
			public Set<String> promoteWaiting(int maxKeys) {
				sweeps.incrementAndGet();
				return Set.of();
			}
		};
	}

	@Test
	void theSweepRunsOnItsOwnTimerWhilePromotionsAreAskedForWithoutPause() throws InterruptedException {
		AtomicInteger sweeps = new AtomicInteger();
		AtomicInteger promotions = new AtomicInteger();
		try (KeyPromoter promoter = new KeyPromoter(counting(sweeps, promotions), queue -> {
		}, Duration.ofMillis(100), () -> true)) {
			promoter.start();
			long end = System.nanoTime() + Duration.ofSeconds(1).toNanos();
			while (System.nanoTime() < end) {
				promoter.promoteAfterCommit(List.of("busy-key"));
				Thread.sleep(10);
			}
		}
		assertThat(promotions.get()).isGreaterThan(20);
		assertThat(sweeps.get()).as("sweeps in a second of steady requests, at a 100 ms sweep interval")
			.isBetween(5, 15);
	}

	@Test
	void aSweepThatFailsIsTriedAgainAfterTheSweepIntervalNotAtOnce() throws InterruptedException {
		AtomicInteger sweeps = new AtomicInteger();
		try (KeyPromoter promoter = new KeyPromoter(failingSweeps(sweeps), queue -> {
		}, Duration.ofMillis(100), () -> true)) {
			promoter.start();
			Thread.sleep(1000);
		}
		assertThat(sweeps.get()).isBetween(2, 15);
	}

	@Test
	void aNodeThatDoesNotMaintainNeverSweepsAndSweepsOnceItDoes() throws InterruptedException {
		AtomicInteger sweeps = new AtomicInteger();
		AtomicBoolean maintaining = new AtomicBoolean();
		try (KeyPromoter promoter = new KeyPromoter(failingSweeps(sweeps), queue -> {
		}, Duration.ofMillis(50), maintaining::get)) {
			promoter.start();
			Thread.sleep(500);
			assertThat(sweeps.get()).isZero();

			maintaining.set(true);
			await().atMost(Duration.ofSeconds(10)).until(() -> sweeps.get() > 0);
		}
	}
}
