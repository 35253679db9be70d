package dev.jobqueue.store.mysql.support;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.jobqueue.store.ClaimedJob;

/**
 * How a claim takes due jobs on this server: {@link MysqlLockingClaim} where the server has
 * {@code SKIP LOCKED} (MySQL 8, MariaDB 10.6 and later), {@link MysqlCasClaim} where it has not.
 */
public interface MysqlClaim {

	/**
	 * As {@code ClaimStore.claim}; {@code versions} is never empty.
	 */
	List<ClaimedJob> claim(String queue, Map<String, Integer> versions, int limit, String owner, Duration lease,
			boolean confirmed);
}
