package dev.jobqueue.autoconfigure;

import javax.sql.DataSource;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.ResourceTransactionManager;
import org.springframework.transaction.support.TransactionOperations;
import org.springframework.transaction.support.TransactionTemplate;
import org.springframework.util.ClassUtils;

import dev.jobqueue.store.Dialect;
import dev.jobqueue.store.sqlite.support.SqliteDataSources;

/**
 * The transactions that transactional handlers run in. The application's transaction manager when it
 * manages the queue's {@code DataSource}, so that the handler's repositories and templates join the
 * transaction that completes the job; otherwise one of our own on that {@code DataSource}, kept out of the
 * context so that it cannot displace the application's. On SQLite, those transactions are deferred and a
 * handler whose first write SQLite refuses runs again ({@link SqliteDataSources#forHandlers}): a handler
 * holds the write lock only while it writes, not while it works.
 */
final class HandlerTransactions {

	private static final boolean JPA_PRESENT = ClassUtils.isPresent("org.springframework.orm.jpa.JpaTransactionManager",
			HandlerTransactions.class.getClassLoader());

	private HandlerTransactions() {
	}

	static TransactionOperations on(Dialect dialect, DataSource dataSource,
			ObjectProvider<PlatformTransactionManager> managers) {
		return dialect.handlerTransactions(on(dataSource, managers));
	}

	static TransactionOperations on(DataSource dataSource, ObjectProvider<PlatformTransactionManager> managers) {
		PlatformTransactionManager application = managers.getIfUnique();
		if (application != null && manages(application, dataSource)) {
			return new TransactionTemplate(application);
		}
		return new TransactionTemplate(new JdbcTransactionManager(dataSource));
	}

	private static boolean manages(PlatformTransactionManager manager, DataSource dataSource) {
		// A JPA manager's resource is its EntityManagerFactory; it still binds the JDBC connection of its
		// DataSource, so our completion statement joins the same transaction as the handler's entities.
		if (JPA_PRESENT && Jpa.isJpa(manager)) {
			return dataSource.equals(Jpa.dataSourceOf(manager));
		}
		return manager instanceof ResourceTransactionManager resource
				&& dataSource.equals(resource.getResourceFactory());
	}

	/** Kept apart so that JPA's classes are loaded only when they are on the classpath. */
	private static final class Jpa {

		static boolean isJpa(PlatformTransactionManager manager) {
			return manager instanceof JpaTransactionManager;
		}

		static DataSource dataSourceOf(PlatformTransactionManager manager) {
			return ((JpaTransactionManager) manager).getDataSource();
		}
	}
}
