-- Whether the worker a claim went to confirmed it, by a heartbeat or an outcome. A claim whose answer
-- never reached its worker (the connection dropped after the commit) leaves its lease to expire
-- unconfirmed, and the reaper then gives its attempt back: a job dies because its handler failed, not
-- because the network ate claim answers. unconfirmed_reaps counts those give-backs, so that a job that
-- brings its worker down before the first heartbeat still ends dead (the reaper stops giving back after
-- ten). Rows already running when this runs count as confirmed, as they did before.
ALTER TABLE jobqueue_job
    ADD COLUMN claim_confirmed   boolean NOT NULL DEFAULT true,
    ADD COLUMN unconfirmed_reaps integer NOT NULL DEFAULT 0;
