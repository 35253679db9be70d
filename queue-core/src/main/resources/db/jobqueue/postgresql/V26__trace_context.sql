-- The trace context of the enqueue (docs/architecture.md, "Tracing"): a JSON object of propagation fields, such as
-- {"traceparent": "00-…"}, captured when the job was enqueued inside a traced request, so that its executions
-- join that trace. NULL when nothing was traced. Nullable and without a default, the column is added to the
-- catalog only: no row of the live table is rewritten.
ALTER TABLE jobqueue_job ADD COLUMN trace_context text;

UPDATE jobqueue_schema_version SET version = 26;
