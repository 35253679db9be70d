package dev.jobqueue.store;

import java.util.Objects;

/**
 * Every statement the queue sends, for one database, as the roles that send them. Each role is implemented by
 * its dialect's class of the same name ({@code PostgresClaims} is Postgres's {@link ClaimStore}); those own their
 * SQL, and nothing else writes any. Every write about a running job is fenced by its {@link Lease}: when the
 * lease was superseded the write changes no row and the method says so, it does not throw.
 *
 * <p>Calls join the Spring transaction bound to the store's {@code DataSource}, if there is one. Made by
 * {@link Dialect#store}.
 *
 * @param vendor a short name of the database, as used for schema locations ({@code postgresql}, {@code sqlite})
 */
public record JobStore(String vendor, EnqueueStore enqueues, ClaimStore claims, OutcomeStore outcomes,
		PromotionStore promotions, PauseStore pauses, ScheduleStore schedules, MaintenanceStore maintenance,
		NodeStore nodes, OperatorReads reads, ExplainReads explain, OperatorWrites writes, TelemetryStore telemetry,
		StepStore steps, DependencyStore dependencies, BatchStore batches) {

	public JobStore {
		Objects.requireNonNull(vendor, "vendor");
		Objects.requireNonNull(enqueues, "enqueues");
		Objects.requireNonNull(claims, "claims");
		Objects.requireNonNull(outcomes, "outcomes");
		Objects.requireNonNull(promotions, "promotions");
		Objects.requireNonNull(pauses, "pauses");
		Objects.requireNonNull(schedules, "schedules");
		Objects.requireNonNull(maintenance, "maintenance");
		Objects.requireNonNull(nodes, "nodes");
		Objects.requireNonNull(reads, "reads");
		Objects.requireNonNull(explain, "explain");
		Objects.requireNonNull(writes, "writes");
		Objects.requireNonNull(telemetry, "telemetry");
		Objects.requireNonNull(steps, "steps");
		Objects.requireNonNull(dependencies, "dependencies");
		Objects.requireNonNull(batches, "batches");
	}
}
