package dev.jobqueue.support;

/** JDBC URLs of the test servers, for the tests that work in a database of their own beside the test database. */
public final class JdbcUrls {

	private JdbcUrls() {
	}

	/** {@code url} with its database, the path after host and port, replaced by {@code name}. */
	public static String withDatabase(String url, String name) {
		int hostStart = url.indexOf("//") + 2;
		int pathStart = url.indexOf('/', hostStart);
		int query = url.indexOf('?', pathStart);
		return url.substring(0, pathStart + 1) + name + (query < 0 ? "" : url.substring(query));
	}
}
