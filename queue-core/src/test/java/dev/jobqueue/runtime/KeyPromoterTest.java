package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
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
			public Stretch promoteWaiting(String after, int maxKeys) {
				sweeps.incrementAndGet();
				return new Stretch(Set.of(), null);
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

	/**
	 * Stretches over {@code keys} waiting keys, none free, each recording where it started and taking 2 ms, as a
	 * database would, so that a walk lasts long enough for promotions to be asked for during it; promotions record
	 * how many stretches had started when they ran.
	 */
	private static PromotionStore stretches(int keys, List<String> starts, List<Integer> promotedAfter) {
		return new PromotionStore() {
			@Override
			public Set<String> promote(Collection<String> promoted) {
				promotedAfter.add(starts.size());
				return Set.of();
			}

			@Override
			public synchronized Stretch promoteWaiting(String after, int maxKeys) {
				starts.add(after);
				pause();
				int first = after.isEmpty() ? 0 : Integer.parseInt(after.substring(1)) + 1;
				int last = Math.min(keys, first + maxKeys) - 1;
				return new Stretch(Set.of(), last == keys - 1 ? null : String.format("k%06d", last));
			}
		};
	}

	private static void pause() {
		try {
			Thread.sleep(2);
		}
		catch (InterruptedException e) {
			Thread.currentThread().interrupt();
		}
	}

	@Test
	void eachTurnOfTheTimerTakesTheNextStretchAndTheWalkStartsAgainAfterTheLastKey() throws InterruptedException {
		List<String> starts = new CopyOnWriteArrayList<>();
		int keys = 2 * KeyPromoter.SWEEP_KEYS + 1;
		try (KeyPromoter promoter = new KeyPromoter(stretches(keys, starts, new CopyOnWriteArrayList<>()), queue -> {
		}, Duration.ofMillis(100), () -> true)) {
			promoter.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> starts.size() >= 4);
		}
		assertThat(starts.subList(0, 4)).containsExactly("", "k000999", "k001999", "");
	}

	@Test
	void aWalkAskedForTakesEveryStretchAtOnceAndServesPromotionsBetweenThem() throws InterruptedException {
		List<String> starts = new CopyOnWriteArrayList<>();
		List<Integer> promotedAfter = new CopyOnWriteArrayList<>();
		int keys = 50 * KeyPromoter.SWEEP_KEYS;
		try (KeyPromoter promoter = new KeyPromoter(stretches(keys, starts, promotedAfter), queue -> {
		}, Duration.ofHours(1), () -> true)) {
			promoter.start();
			await().atMost(Duration.ofSeconds(10)).until(() -> starts.size() == 1);
			promoter.sweepSoon();
			long end = System.nanoTime() + Duration.ofSeconds(10).toNanos();
			while (starts.size() < 51 && System.nanoTime() < end) {
				promoter.promoteAfterCommit(List.of("busy-key"));
				Thread.sleep(1);
			}
		}
		assertThat(starts).as("one stretch at start, then a whole walk of 50 long before the timer's next turn")
			.hasSize(51)
			.containsOnlyOnce("k000999");
		assertThat(starts.get(1)).isEmpty();
		assertThat(promotedAfter).as("promotions run while the walk was under way")
			.anyMatch(started -> started > 2 && started < 51);
	}
}
