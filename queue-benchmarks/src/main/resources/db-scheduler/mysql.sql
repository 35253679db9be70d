CREATE TABLE IF NOT EXISTS scheduled_tasks (
    task_name varchar(100) NOT NULL,
    task_instance varchar(100) NOT NULL,
    task_data blob,
    execution_time timestamp(6) NOT NULL,
    picked boolean NOT NULL,
    picked_by varchar(50),
    last_success timestamp(6) NULL,
    last_failure timestamp(6) NULL,
    consecutive_failures int,
    last_heartbeat timestamp(6) NULL,
    version bigint NOT NULL,
    priority smallint,
    PRIMARY KEY (task_name, task_instance),
    INDEX execution_time_idx (execution_time),
    INDEX last_heartbeat_idx (last_heartbeat),
    INDEX priority_execution_time_idx (priority DESC, execution_time ASC)
) ENGINE = InnoDB DEFAULT CHARSET = utf8mb4;
