package dev.jobqueue.store;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/** The hand-over of concurrency keys' free slots to their blocked jobs. */
public interface PromotionStore {

	/**
	 * Hands the free slots of these concurrency keys to their blocked jobs, first enqueued first, in
	 * transactions of its own (whatever transaction the caller is in), each over a bounded number of keys however
	 * many are asked for, and returns the queues of the jobs it made ready. A key's slots are held by its ready and
	 * running jobs, and its dead ones when they hold theirs; the key's first blocked job's limit says how many there
	 * are. Promotions of one key are serialized across nodes, so a key never has more jobs holding slots than its
	 * limit. Call it after the write that freed a slot or added a blocked job has committed.
	 */
	Set<String> promote(Collection<String> keys);

	/**
	 * One stretch of the sweep that catches slots no promotion followed (a node that stopped between its write and
	 * the promotion, a write in a transaction the queue did not see commit): examines the next {@code maxKeys} keys
	 * that have blocked jobs, in key order after {@code after} ({@code ""} for the first), and promotes
	 * ({@link #promote}) those with a free slot. A walk over every waiting key is a run of stretches, each as costly
	 * as {@code maxKeys} keys whatever their number.
	 */
	Stretch promoteWaiting(String after, int maxKeys);

	/**
	 * What a stretch of the sweep did: the queues of the jobs it made ready, and the last key it examined, where the
	 * next stretch starts, or null when it reached the last waiting key.
	 */
	record Stretch(Set<String> queues, String lastKey) {

		/**
		 * The stretch over {@code walked}, the waiting keys examined in key order, whose free ones {@code promote}
		 * promoted.
		 */
		public static Stretch of(List<Waiting> walked, int maxKeys, Function<List<String>, Set<String>> promote) {
			List<String> free = walked.stream().filter(Waiting::freeSlot).map(Waiting::key).toList();
			Set<String> queues = free.isEmpty() ? Set.of() : promote.apply(free);
			return new Stretch(queues, walked.size() < maxKeys ? null : walked.get(walked.size() - 1).key());
		}
	}

	/** A key with blocked jobs, and whether a first count, taken without its lock, found a free slot. */
	record Waiting(String key, boolean freeSlot) {
	}
}
