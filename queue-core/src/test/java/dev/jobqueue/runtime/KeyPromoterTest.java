package dev.jobqueue.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;

import dev.jobqueue.store.PromotionStore;

class KeyPromoterTest {

	/** A store whose sweep always fails, as during an outage; every other call is a mistake here. */
	private static PromotionStore failingSweeps(AtomicInteger sweeps) {
		return (PromotionStore) Proxy.newProxyInstance(PromotionStore.class.getClassLoader(), new Class<?>[] { PromotionStore.class },
				(proxy, method, args) -> {
					if (method.getName().equals("promoteWaiting")) {
						sweeps.incrementAndGet();
						throw new DataAccessResourceFailureException("database unreachable");
					}
					throw new UnsupportedOperationException(method.getName());
				});
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
