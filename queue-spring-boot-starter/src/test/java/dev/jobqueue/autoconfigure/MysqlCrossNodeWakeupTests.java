package dev.jobqueue.autoconfigure;

class MysqlCrossNodeWakeupTests extends AbstractCrossNodeWakeupTests {

	@Override
	protected String freshDatabaseUrl(String name) {
		return MysqlDatabases.fresh(name);
	}
}
