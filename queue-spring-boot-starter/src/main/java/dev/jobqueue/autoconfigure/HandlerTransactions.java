package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The transactions that transactional handlers run in. The application's transaction manager when it
 * manages the queue's {@code DataSource}, so that the handler's repositories and templates join the
 * transaction that completes the job; otherwise one of our own on that {@code DataSource}, kept out of the
 * context so that it cannot displace the application's.
 */
final class HandlerTransactions {

	private HandlerTransactions() {
	}

	static TransactionOperations on(DataSource dataSource, ObjectProvider<PlatformTransactionManager> managers) {
		PlatformTransactionManager application = managers.getIfUnique();
		if (application instanceof ResourceTransactionManager resource
				&& dataSource.equals(resource.getResourceFactory())) {
			return new TransactionTemplate(application);
		}
		return new TransactionTemplate(new JdbcTransactionManager(dataSource));
	}
}
