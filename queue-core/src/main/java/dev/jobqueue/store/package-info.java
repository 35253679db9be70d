/**
 * Internal: the contract every database keeps ({@link dev.jobqueue.store.JobStore}, its rows and leases, the
 * {@link dev.jobqueue.store.Dialect} seam) and what the dialects share. Public only for the dialect packages, the
 * runtime and the starter; not an API, and any release may change it. Depends on the API package alone.
 */
package dev.jobqueue.store;
