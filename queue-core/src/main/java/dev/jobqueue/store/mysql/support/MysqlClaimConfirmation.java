package dev.jobqueue.store.mysql.support;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

import dev.jobqueue.store.Lease;

/**
 * Whether a claim's update confirms the claim ({@code ClaimStore.claimConfirmed}), and, for one that does, the leases
 * its updates were about to write: those a claim that fails must take the confirmation back from, since it cannot
 * tell whether its commit went through. One per claim, used by the claim's thread only.
 */
public final class MysqlClaimConfirmation {

	private final boolean confirms;

	private final List<Lease> sent = new ArrayList<>();

	private MysqlClaimConfirmation(boolean confirms) {
		this.confirms = confirms;
	}

	/** For {@code ClaimStore.claim}: the worker confirms once the answer arrived. */
	public static MysqlClaimConfirmation afterAnswer() {
		return new MysqlClaimConfirmation(false);
	}

	/** For {@code ClaimStore.claimConfirmed}: the claim's update confirms. */
	public static MysqlClaimConfirmation inClaim() {
		return new MysqlClaimConfirmation(true);
	}

	/** The value the claim's update writes to {@code claim_confirmed}. */
	public boolean confirms() {
		return confirms;
	}

	/** Called with the leases an update is about to write, before it is sent. */
	public void sending(Collection<Lease> leases) {
		if (confirms) {
			sent.addAll(leases);
		}
	}

	/** The leases a confirming claim's updates may have written. */
	public List<Lease> sent() {
		return List.copyOf(sent);
	}
}
