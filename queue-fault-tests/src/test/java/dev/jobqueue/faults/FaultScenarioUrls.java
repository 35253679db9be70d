package dev.jobqueue.faults;

/** Rewrites the test database's JDBC URL to go through a {@link TcpProxy}. */
final class FaultScenarioUrls {

	private FaultScenarioUrls() {
	}

	/** {@code jdbc:postgresql://host:port/db?…} without {@code jdbc:}, for {@link java.net.URI}. */
	static String withoutPrefix(String jdbcUrl) {
		return jdbcUrl.substring("jdbc:".length());
	}

	/** The same URL with host and port replaced by the proxy's, 127.0.0.1:{@code port}. */
	static String throughPort(String jdbcUrl, int port) {
		return jdbcUrl.replaceFirst("//[^/]+/", "//127.0.0.1:" + port + "/");
	}
}
