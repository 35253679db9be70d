package dev.jobqueue.test;

import org.springframework.test.context.TestContext;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.test.context.transaction.TransactionalTestExecutionListener;

/**
 * Marks where each test begins for the {@link JobQueueTester} of its context, if it has one: jobs enqueued
 * from then on are the test's. Registered for every Spring test through {@code META-INF/spring.factories},
 * as Spring Boot registers its own listeners, so that no test has to ask for it.
 *
 * <p>It runs before the test's transaction begins ({@link TransactionalTestExecutionListener}), so the
 * mark is read outside it; on SQLite a read inside a deferred transaction would fix its snapshot early.
 */
class JobQueueTestExecutionListener extends AbstractTestExecutionListener {

	/** Before {@link TransactionalTestExecutionListener} (4000), after dependency injection (2000). */
	static final int ORDER = 3_900;

	@Override
	public int getOrder() {
		return ORDER;
	}

	@Override
	public void beforeTestMethod(TestContext testContext) {
		if (!testContext.hasApplicationContext()) {
			return;
		}
		testContext.getApplicationContext()
			.getBeanProvider(JobQueueTester.class)
			.ifAvailable(JobQueueTester::resetEnqueued);
	}
}
