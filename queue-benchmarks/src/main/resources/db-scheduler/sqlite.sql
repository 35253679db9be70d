CREATE TABLE IF NOT EXISTS scheduled_tasks (
    task_name TEXT NOT NULL,
    task_instance TEXT NOT NULL,
    task_data BLOB,
    execution_time TIMESTAMP NOT NULL,
    picked BOOLEAN NOT NULL,
    picked_by TEXT,
    last_success TIMESTAMP,
    last_failure TIMESTAMP,
    consecutive_failures INTEGER,
    last_heartbeat TIMESTAMP,
    version INTEGER NOT NULL,
    priority INTEGER,
    PRIMARY KEY (task_name, task_instance)
);
CREATE INDEX IF NOT EXISTS execution_time_idx ON scheduled_tasks (execution_time);
CREATE INDEX IF NOT EXISTS last_heartbeat_idx ON scheduled_tasks (last_heartbeat);
CREATE INDEX IF NOT EXISTS priority_execution_time_idx ON scheduled_tasks (priority DESC, execution_time ASC);
