package dev.jobqueue.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;

/**
 * A real PgBouncer in transaction pooling mode in front of the test database, started as a process of its
 * own on a free loopback port with a generated configuration, and stopped by {@link #close()}. Without a
 * {@code pgbouncer} binary the test is skipped with a notice, except under {@code CI=true}, where that is a
 * failure (.ci/run installs Debian's package).
 *
 * <p>PgBouncer 1.18 refuses startup parameters it does not know: pgjdbc's {@code extra_float_digits} is
 * ignored, and the {@code currentSchema} of the database's URL (sent as {@code search_path}) is set on the
 * server connections instead, by the pooled database's {@code connect_query}; the URL through PgBouncer
 * carries neither.
 */
public final class PgBouncer implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofSeconds(15);

	private static final Path[] BINARIES = { Path.of("/usr/sbin/pgbouncer"), Path.of("/usr/bin/pgbouncer"),
			Path.of("/usr/local/bin/pgbouncer") };

	private final Path folder;

	private final Target target;

	private final int port;

	private final int serverConnections;

	private Process process;

	private PgBouncer(Path folder, Target target, int port, int serverConnections) {
		this.folder = folder;
		this.target = target;
		this.port = port;
		this.serverConnections = serverConnections;
	}

	/**
	 * Starts PgBouncer in front of the database of {@code postgresUrl} (a {@code jdbc:postgresql://} URL with
	 * its user, as {@link PostgresTestDatabase#url()} gives), with at most {@code serverConnections}
	 * connections to PostgreSQL, and waits until it listens.
	 */
	public static PgBouncer start(String postgresUrl, int serverConnections) {
		return prepare(postgresUrl, serverConnections).start(null);
	}

	/** A PgBouncer as {@link #start(String, int)} has it, its port chosen, not started yet. */
	public static PgBouncer prepare(String postgresUrl, int serverConnections) {
		binary();
		try {
			return new PgBouncer(Files.createTempDirectory("jobqueue-pgbouncer"), Target.of(postgresUrl), freePort(),
					serverConnections);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not prepare PgBouncer", ex);
		}
	}

	/**
	 * Starts this prepared PgBouncer, its server connections opened with {@code applicationName} unless
	 * null, and waits until it listens. A session's application name is otherwise what PgBouncer last set on
	 * it for some client, from a cache that PostgreSQL 14 and later leave stale (they do not report a value
	 * set to what it already was; pgbouncer issue 993): PgBouncer 1.18 does not carry each client's own.
	 */
	public PgBouncer start(String applicationName) {
		try {
			Path users = folder.resolve("userlist.txt");
			Files.writeString(users, "\"" + target.user() + "\" \"" + target.password() + "\"\n");
			Files.writeString(folder.resolve("pgbouncer.ini"),
					target.ini(port, serverConnections, users, applicationName));
			process = new ProcessBuilder(command(binary(), folder.resolve("pgbouncer.ini"))).redirectErrorStream(true)
				.redirectOutput(folder.resolve("pgbouncer.log").toFile())
				.start();
			awaitListening();
			return this;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not start PgBouncer", ex);
		}
	}

	/** The test database's URL through PgBouncer, with no driver setting added: callers add theirs. */
	public String jdbcUrl() {
		return target.throughPort(port);
	}

	/** What PgBouncer printed so far: its log. */
	public String log() {
		try {
			Path log = folder.resolve("pgbouncer.log");
			return Files.exists(log) ? Files.readString(log, StandardCharsets.UTF_8) : "";
		}
		catch (IOException ex) {
			return "(log unreadable: " + ex + ")";
		}
	}

	@Override
	public void close() {
		if (process == null) {
			return;
		}
		process.destroy();
		try {
			if (!process.waitFor(10, TimeUnit.SECONDS)) {
				process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static Path binary() {
		Stream<Path> onPath = Stream.of(System.getenv().getOrDefault("PATH", "").split(":"))
			.filter(dir -> !dir.isEmpty())
			.map(dir -> Path.of(dir, "pgbouncer"));
		Path found = Stream.concat(onPath, Stream.of(BINARIES)).filter(Files::isExecutable).findFirst().orElse(null);
		if (found == null) {
			String problem = "No pgbouncer binary (on the PATH or in /usr/sbin): install it, e.g. "
					+ "apt-get install pgbouncer";
			if ("true".equalsIgnoreCase(System.getenv("CI"))) {
				throw new IllegalStateException(problem + "; under CI=true this is a failure, not a skip");
			}
			Assumptions.abort(problem);
		}
		return found;
	}

	/** PgBouncer refuses to run as root; there it drops to {@code nobody} once it has read its files. */
	private static String[] command(Path binary, Path ini) {
		if ("root".equals(System.getProperty("user.name"))) {
			return new String[] { binary.toString(), "-u", "nobody", ini.toString() };
		}
		return new String[] { binary.toString(), ini.toString() };
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Waits until PgBouncer accepts connections on its port: a TCP connection, as a statement would open a
	 * server connection for nothing.
	 */
	private void awaitListening() {
		long deadline = System.nanoTime() + STARTUP.toNanos();
		IOException last = null;
		while (System.nanoTime() < deadline) {
			if (!process.isAlive()) {
				throw new IllegalStateException("PgBouncer exited at startup:\n" + log());
			}
			try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
				return;
			}
			catch (IOException ex) {
				last = ex;
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
		}
		close();
		throw new IllegalStateException("PgBouncer did not listen within " + STARTUP + ":\n" + log(), last);
	}

	/** The PostgreSQL server, database, user and schema of a test URL. */
	private record Target(String host, int port, String database, Map<String, String> parameters) {

		static Target of(String postgresUrl) {
			URI uri = URI.create(postgresUrl.substring("jdbc:".length()));
			Map<String, String> parameters = new LinkedHashMap<>();
			if (uri.getQuery() != null) {
				for (String pair : uri.getQuery().split("&")) {
					String[] keyValue = pair.split("=", 2);
					parameters.put(keyValue[0], keyValue.length > 1 ? keyValue[1] : "");
				}
			}
			String database = uri.getPath().substring(1);
			return new Target(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 5432, database, parameters);
		}

		String user() {
			return parameters.getOrDefault("user", "postgres");
		}

		String password() {
			return parameters.getOrDefault("password", "");
		}

		/** The configuration; {@code applicationName}, when not null, that of every server connection. */
		String ini(int port, int serverConnections, Path users, String applicationName) {
			String schema = parameters.get("currentSchema");
			String server = "host=" + host + " port=" + port() + " dbname=" + database + " user=" + user()
					+ (password().isEmpty() ? "" : " password=" + password())
					+ (schema == null ? "" : " connect_query='SET search_path TO " + schema + "'")
					+ (applicationName == null ? "" : " application_name=" + applicationName);
			return """
					[databases]
					%s = %s

					[pgbouncer]
					listen_addr = 127.0.0.1
					listen_port = %d
					unix_socket_dir =
					auth_type = trust
					auth_file = %s
					pool_mode = transaction
					default_pool_size = %d
					max_client_conn = 1000
					ignore_startup_parameters = extra_float_digits
					""".formatted(database, server, port, users, serverConnections);
		}

		/** The same database through PgBouncer: its user and password kept, the schema left to PgBouncer. */
		String throughPort(int bouncerPort) {
			String query = parameters.entrySet()
				.stream()
				.filter(entry -> !entry.getKey().equals("currentSchema"))
				.map(entry -> entry.getKey() + "=" + entry.getValue())
				.collect(Collectors.joining("&"));
			return "jdbc:postgresql://127.0.0.1:" + bouncerPort + "/" + database + "?" + query;
		}
	}
}
