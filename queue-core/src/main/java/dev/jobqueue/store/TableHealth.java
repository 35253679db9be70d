package dev.jobqueue.store;

import java.time.Duration;
import java.util.Optional;

/**
 * What the database says about the job table's bloat and what holds its cleanup back: read on PostgreSQL from
 * its statistics views (shared memory, not the table). SQLite keeps no dead row versions and has none of this.
 *
 * @param deadRows the table's dead row versions, as the statistics system counts them
 * @param sinceVacuum how long ago the last VACUUM or autovacuum of the table finished; empty when none since the
 * statistics were last reset
 * @param xminHeld how long the oldest transaction of this database (or prepared transaction) that holds back the
 * xmin horizon has been open: no VACUUM can remove a row version that died after it began; zero when none
 * @param xminAge how many transactions old the oldest xmin that holds back the horizon is, over the open
 * transactions, the prepared ones and the replication slots; zero when none
 */
public record TableHealth(long deadRows, Optional<Duration> sinceVacuum, Duration xminHeld, long xminAge) {
}
