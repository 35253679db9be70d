package dev.jobqueue.store.mysql;

import java.util.function.Supplier;

import javax.sql.DataSource;

import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The store's own short transactions, at READ COMMITTED. InnoDB's default, REPEATABLE READ, locks the gaps
 * between the index entries a locking read walks, and two claims or a claim and an enqueue that lock
 * neighbouring gaps in opposite orders deadlock: the classic trap of a queue on MySQL. READ COMMITTED locks
 * the rows a statement changes and nothing between them. A caller's transaction is joined as it is (its
 * isolation is its own); where the pool's connections are at READ COMMITTED already (Hikari's
 * {@code transactionIsolation}), Spring changes nothing on the connection, and the transaction costs no extra
 * round trip.
 */
final class MysqlTransactions {

	private final TransactionTemplate joined;

	private final TransactionTemplate own;

	MysqlTransactions(DataSource dataSource) {
		JdbcTransactionManager manager = new JdbcTransactionManager(dataSource);
		this.joined = new TransactionTemplate(manager);
		this.joined.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.own = new TransactionTemplate(manager);
		this.own.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
		this.own.setPropagationBehavior(TransactionDefinition.PROPAGATION_REQUIRES_NEW);
	}

	/** In the caller's transaction if there is one, else in one of our own. */
	<T> T run(Supplier<T> work) {
		return joined.execute(status -> work.get());
	}

	/** In a transaction of our own, whatever the caller's. */
	<T> T runOwn(Supplier<T> work) {
		return own.execute(status -> work.get());
	}
}
