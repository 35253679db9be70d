package dev.jobqueue.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import javax.sql.DataSource;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.StaticListableBeanFactory;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.orm.jpa.JpaTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

class HandlerTransactionsTests {

	private final DataSource queueDataSource = mock(DataSource.class);

	@Test
	void theApplicationsTransactionManagerRunsHandlersWhenItManagesTheQueuesDataSource() {
		JdbcTransactionManager application = new JdbcTransactionManager(queueDataSource);

		assertThat(managerOf(HandlerTransactions.on(queueDataSource, providerOf(application)))).isSameAs(application);
	}

	@Test
	void aTransactionManagerOfAnotherDataSourceIsNotUsed() {
		JdbcTransactionManager application = new JdbcTransactionManager(mock(DataSource.class));

		PlatformTransactionManager used = managerOf(HandlerTransactions.on(queueDataSource, providerOf(application)));

		assertThat(used).isNotSameAs(application).isInstanceOf(JdbcTransactionManager.class);
		assertThat(((JdbcTransactionManager) used).getDataSource()).isSameAs(queueDataSource);
	}

	@Test
	void aJpaTransactionManagerOfTheQueuesDataSourceRunsHandlers() {
		JpaTransactionManager application = new JpaTransactionManager();
		application.setDataSource(queueDataSource);

		assertThat(managerOf(HandlerTransactions.on(queueDataSource, providerOf(application)))).isSameAs(application);
	}

	@Test
	void aJpaTransactionManagerOfAnotherDataSourceIsNotUsed() {
		JpaTransactionManager application = new JpaTransactionManager();
		application.setDataSource(mock(DataSource.class));

		assertThat(managerOf(HandlerTransactions.on(queueDataSource, providerOf(application))))
			.isInstanceOf(JdbcTransactionManager.class);
	}

	@Test
	void withoutATransactionManagerTheQueueUsesOneOfItsOwn() {
		PlatformTransactionManager used = managerOf(HandlerTransactions.on(queueDataSource,
				new StaticListableBeanFactory().getBeanProvider(PlatformTransactionManager.class)));

		assertThat(((JdbcTransactionManager) used).getDataSource()).isSameAs(queueDataSource);
	}

	private static ObjectProvider<PlatformTransactionManager> providerOf(PlatformTransactionManager manager) {
		StaticListableBeanFactory beans = new StaticListableBeanFactory();
		beans.addBean("transactionManager", manager);
		return beans.getBeanProvider(PlatformTransactionManager.class);
	}

	private static PlatformTransactionManager managerOf(Object operations) {
		return ((TransactionTemplate) operations).getTransactionManager();
	}
}
