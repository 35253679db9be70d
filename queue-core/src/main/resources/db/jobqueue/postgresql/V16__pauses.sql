-- Paused queues and kinds, for the whole cluster: the claim passes over the ready jobs of a paused queue,
-- and over those of a paused kind in any queue, until they are resumed. Running jobs are not touched.
-- A resume keeps the row, paused = false: a node's initially-paused setting writes a pause only where no
-- row exists, so it pauses a queue the first time the cluster meets it and never undoes an operator's
-- resume at the next restart. changed_at is when the row was last paused or resumed.
CREATE TABLE jobqueue_pause (
    scope      text        NOT NULL CHECK (scope IN ('queue', 'kind')),
    name       text        NOT NULL,
    paused     boolean     NOT NULL,
    changed_at timestamptz NOT NULL,
    PRIMARY KEY (scope, name)
);
