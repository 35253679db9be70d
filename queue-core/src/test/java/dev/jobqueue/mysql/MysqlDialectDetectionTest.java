package dev.jobqueue.mysql;

import org.junit.jupiter.api.Test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.jobqueue.dialects.JobStores;
import dev.jobqueue.store.mysql.MysqlDialect;
import dev.jobqueue.store.mysql.support.MysqlClaimMethod;
import dev.jobqueue.support.MysqlTestDatabase;

import static org.assertj.core.api.Assertions.assertThat;

class MysqlDialectDetectionTest {

	@Test
	void bothDriversPickTheMysqlDialectWhateverProductNameTheyReport() {
		for (String url : new String[] { MysqlTestDatabase.url(), MysqlTestDatabase.otherDriverUrl() }) {
			HikariConfig config = new HikariConfig();
			config.setJdbcUrl(url);
			config.setMaximumPoolSize(1);
			try (HikariDataSource dataSource = new HikariDataSource(config)) {
				assertThat(JobStores.vendorOf(dataSource)).as(url).isEqualTo("mysql");
				assertThat(JobStores.dialect(dataSource)).as(url).isInstanceOf(MysqlDialect.class);
			}
		}
	}

	@Test
	void theConfiguredVendorMysqlOrMariadbNamesTheDialect() {
		assertThat(JobStores.dialect("mysql")).isInstanceOf(MysqlDialect.class);
		assertThat(JobStores.dialect("MariaDB")).isInstanceOf(MysqlDialect.class);
		assertThat(JobStores.SUPPORTED).contains("mysql");
	}

	@Test
	void skipLockedFromMysql8AndMariaDb106OnCompareAndSetBefore() {
		assertThat(MysqlClaimMethod.forServer("8.0.36")).isEqualTo(MysqlClaimMethod.SKIP_LOCKED);
		assertThat(MysqlClaimMethod.forServer("9.1.0")).isEqualTo(MysqlClaimMethod.SKIP_LOCKED);
		assertThat(MysqlClaimMethod.forServer("5.7.44-log")).isEqualTo(MysqlClaimMethod.COMPARE_AND_SET);
		assertThat(MysqlClaimMethod.forServer("10.11.19-MariaDB-0+deb12u1")).isEqualTo(MysqlClaimMethod.SKIP_LOCKED);
		assertThat(MysqlClaimMethod.forServer("10.6.0-MariaDB")).isEqualTo(MysqlClaimMethod.SKIP_LOCKED);
		assertThat(MysqlClaimMethod.forServer("11.4.2-MariaDB")).isEqualTo(MysqlClaimMethod.SKIP_LOCKED);
		assertThat(MysqlClaimMethod.forServer("10.5.23-MariaDB")).isEqualTo(MysqlClaimMethod.COMPARE_AND_SET);
		assertThat(MysqlClaimMethod.forServer("10.4.34-MariaDB-log")).isEqualTo(MysqlClaimMethod.COMPARE_AND_SET);
	}
}
