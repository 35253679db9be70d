package dev.jobqueue.store.mysql.support;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The two claims of the MySQL dialect (docs/internals/mysql.md), and which one a server takes. */
public enum MysqlClaimMethod {

	/** {@code SELECT … FOR UPDATE SKIP LOCKED}, then one update of the rows it locked. */
	SKIP_LOCKED,

	/**
	 * Candidates read without locks, then one update per candidate that changes it only while it is still ready
	 * at the lease token it was read with: for servers without {@code SKIP LOCKED}.
	 */
	COMPARE_AND_SET;

	private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

	/**
	 * The claim for a server that answers {@code SELECT VERSION()} with {@code version}: SKIP LOCKED from MySQL
	 * 8.0 and MariaDB 10.6 on, where it came.
	 */
	public static MysqlClaimMethod forServer(String version) {
		Matcher numbers = VERSION.matcher(version);
		if (!numbers.find()) {
			return COMPARE_AND_SET;
		}
		int major = Integer.parseInt(numbers.group(1));
		int minor = Integer.parseInt(numbers.group(2));
		boolean skipLocked = isMariadb(version) ? major > 10 || (major == 10 && minor >= 6) : major >= 8;
		return skipLocked ? SKIP_LOCKED : COMPARE_AND_SET;
	}

	/** Whether {@code version}, a server's answer to {@code SELECT VERSION()}, is MariaDB's. */
	public static boolean isMariadb(String version) {
		return version.toLowerCase(Locale.ROOT).contains("mariadb");
	}
}
