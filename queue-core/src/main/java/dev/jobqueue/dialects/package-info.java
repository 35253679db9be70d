/**
 * Internal: the list of supported databases, and the choice of one from a {@code DataSource}'s metadata. The only
 * package that knows every dialect. Not an API.
 */
package dev.jobqueue.dialects;
