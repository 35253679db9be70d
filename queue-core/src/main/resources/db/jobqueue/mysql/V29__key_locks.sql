-- One row per concurrency key, the lock that serializes the key's promotions (MysqlPromotions): the row of the key's
-- first waiting job, which served before, moves when a job with a lower id goes back to blocked (an operator's
-- retry of a dead job, a rate-limited job back from running), and a promotion that locked the new first row did not
-- wait for one that held the old. A row holds the key only, no count of holders: the promotion counts them from the
-- job rows under this lock (docs/decisions/043). A promotion inserts its key's row when it is missing; rows stay, one
-- per key ever promoted, a few dozen bytes each.
CREATE TABLE jobqueue_key (
    concurrency_key VARCHAR(255) NOT NULL PRIMARY KEY
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4 COLLATE = utf8mb4_bin;

UPDATE jobqueue_schema_version SET version = 29;
