package dev.jobqueue.autoconfigure;

class MysqlPoolStarvationTests extends AbstractPoolStarvationTests {

	@Override
	protected String freshDatabaseUrl(String name) {
		return MysqlDatabases.fresh(name);
	}
}
