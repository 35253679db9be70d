package dev.jobqueue.store;

import java.util.Collection;
import java.util.Set;

/** The hand-over of concurrency keys' free slots to their blocked jobs. */
public interface PromotionStore {

	/**
	 * Hands the free slots of these concurrency keys to their blocked jobs, first enqueued first, in a
	 * transaction of its own (whatever transaction the caller is in), and returns the queues of the jobs it
	 * made ready. A key's slots are held by its ready and running jobs, and its dead ones when they hold
	 * theirs; the key's first blocked job's limit says how many there are. Promotions of one key are
	 * serialized across nodes, so a key never has more jobs holding slots than its limit. Call it after the
	 * write that freed a slot or added a blocked job has committed.
	 */
	Set<String> promote(Collection<String> keys);

	/**
	 * Promotes ({@link #promote}) up to {@code maxKeys} keys that have blocked jobs and a free slot, in the
	 * caller's transaction if there is one: the sweep that catches slots no promotion followed (a node that
	 * stopped between its write and the promotion, a reaped or pruned job, a write in a transaction the
	 * queue did not see commit). Returns the queues of the jobs it made ready.
	 */
	Set<String> promoteWaiting(int maxKeys);
}
