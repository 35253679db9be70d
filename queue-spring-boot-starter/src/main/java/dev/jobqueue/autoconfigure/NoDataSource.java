package dev.jobqueue.autoconfigure;

/**
 * What the startup reports say when the queue cannot be set up for want of a {@code DataSource}: the
 * application uses the queue (a handler, an injected {@code JobQueue}), yet has no JDBC pool, driver or URL.
 */
final class NoDataSource {

	static final String ACTION = """
			Give the application a database for the queue to live in, beside your own tables:

			    SQLite (a file, no server): add the dependencies org.springframework.boot:spring-boot-starter-jdbc
			    and org.xerial:sqlite-jdbc, and set spring.datasource.url=jdbc:sqlite:data/app.db

			    PostgreSQL: add the dependencies org.springframework.boot:spring-boot-starter-jdbc and
			    org.postgresql:postgresql, and set spring.datasource.url=jdbc:postgresql://localhost:5432/app,
			    spring.datasource.username and spring.datasource.password

			    MySQL or MariaDB: add the dependencies org.springframework.boot:spring-boot-starter-jdbc and
			    org.mariadb.jdbc:mariadb-java-client (or com.mysql:mysql-connector-j), and set
			    spring.datasource.url=jdbc:mariadb://localhost:3306/app (or jdbc:mysql:…),
			    spring.datasource.username and spring.datasource.password

			Or set jobqueue.enabled=false to start without the queue.""";

	private NoDataSource() {
	}

	/** The report's description, after what uses the queue ("Bean 'x' needs a JobQueue"). */
	static String description(String use) {
		return use + ", but no queue could be set up: the application has no DataSource (no JDBC connection pool, "
				+ "driver or spring.datasource.url).";
	}
}
