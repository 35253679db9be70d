-- The version of the payload's shape, as its handler declared it when the job was enqueued. A node reads
-- the versions up to its handler's (older ones through the upcasters it declares), and its claim passes
-- over newer ones, which wait for a node of the newer code. Rows written before this ran are version 1,
-- the version every handler had until then.
-- A constant default and no CHECK: the column is added without rewriting or scanning the table, which a
-- large backlog would hold locked all the while. The enqueue refuses versions below 1.
ALTER TABLE jobqueue_job ADD COLUMN payload_version integer NOT NULL DEFAULT 1;
