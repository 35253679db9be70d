-- The sample's own table, migrated by Spring Boot's Flyway (history: flyway_schema_history).
-- The queue's tables are migrated beside it by jobqueue (history: jobqueue_schema_history).
CREATE TABLE app_user (
    id    VARCHAR(36)  PRIMARY KEY,
    email VARCHAR(320) NOT NULL UNIQUE,
    name  VARCHAR(200) NOT NULL
);
