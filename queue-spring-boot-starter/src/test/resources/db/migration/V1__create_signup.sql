-- The test application's own table, migrated by Spring Boot's Flyway beside the queue's.
CREATE TABLE app_signup (
    email VARCHAR(320) PRIMARY KEY,
    name  VARCHAR(200) NOT NULL
);

CREATE TABLE app_audit (
    job_id BIGINT PRIMARY KEY,
    note   VARCHAR(200) NOT NULL
);
