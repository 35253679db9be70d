package dev.jobqueue.runtime;

import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Work that must see what the transaction under way writes: run once it commits (never, when it rolls back), or now
 * when no transaction is under way.
 */
final class AfterCommit {

	private AfterCommit() {
	}

	static void run(Runnable work) {
		if (TransactionSynchronizationManager.isSynchronizationActive()) {
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
				@Override
				public void afterCommit() {
					work.run();
				}
			});
		}
		else {
			work.run();
		}
	}
}
