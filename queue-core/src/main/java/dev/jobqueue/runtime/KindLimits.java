package dev.jobqueue.runtime;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.jobqueue.EnqueueOptions;
import dev.jobqueue.runtime.JobHandlerDefinition.KeyLimits;
import dev.jobqueue.store.KindDeclaration;
import dev.jobqueue.store.NewJob;
import dev.jobqueue.store.NodeStore;

/**
 * A kind's limits (key limit, dead jobs holding their key, cluster-wide limit, rate), and from them the concurrency
 * key and slots of each new job, for every enqueue and every schedule's fire. The nodes that serve a kind declare
 * its limits in the database at their start ({@link #declare}); a node that serves the kind enqueues with its own
 * handler's, every other enqueue (a kind listed as external, a schedule on a node without the handler) with the
 * kind's declaration, read again at most every {@link #REFRESH}. During a rolling deploy that changes them the
 * declaration of the serving node that started last stands, and a node whose start replaces another node's
 * different declaration says so in a warning.
 */
public final class KindLimits {

	/** How long a read of the declarations serves enqueues of kinds this node does not serve. */
	static final Duration REFRESH = Duration.ofSeconds(10);

	private static final Logger log = LoggerFactory.getLogger(KindLimits.class);

	private final NodeStore store;

	private final Map<String, Integer> keyLimitsByPrefix;

	private volatile Map<String, KindDeclaration> declared;

	private volatile long readAt;

	/** @param keyLimitsByPrefix the limits of keys by their longest configured prefix, which a handler's yields to */
	public KindLimits(NodeStore store, Map<String, Integer> keyLimitsByPrefix) {
		this.store = store;
		this.keyLimitsByPrefix = Map.copyOf(keyLimitsByPrefix);
	}

	/** Writes the limits of the kinds {@code handlers} serve as node {@code node}'s declaration. */
	public void declare(String node, HandlerRegistry handlers) {
		List<KindDeclaration> mine = handlers.all().stream()
			.map(handler -> declaration(handler.kind(), handler.keyLimits(), node))
			.toList();
		if (mine.isEmpty()) {
			return;
		}
		Map<String, KindDeclaration> before = byKind(store.declaredKinds());
		for (KindDeclaration declaration : mine) {
			KindDeclaration earlier = before.get(declaration.kind());
			if (earlier != null && !earlier.sameLimits(declaration) && !earlier.declaredBy().equals(node)) {
				log.warn("Kind '{}': this node's limits ({}) replace those node '{}' declared at {} ({}); every enqueue "
						+ "of the kind outside its serving nodes takes them from now on", declaration.kind(),
						describe(declaration), earlier.declaredBy(), earlier.declaredAt(), describe(earlier));
			}
		}
		store.declareKinds(mine);
		refresh();
	}

	/**
	 * The concurrency key and slots of a new job of {@code kind}: the enqueue's key, or the kind's own when it has a
	 * cluster-wide limit (or a rate and the enqueue names no key); a rate's starts, else the limit of the key's
	 * longest configured prefix, else the kind's key limit; null for a job with no key.
	 *
	 * @param handler this node's handler of the kind, if it serves it
	 * @throws IllegalArgumentException for a key of its own on a kind with a cluster-wide limit
	 */
	public NewJob.KeySlot keySlot(String kind, String concurrencyKey, Optional<JobHandlerDefinition> handler) {
		KeyLimits limits = handler.map(JobHandlerDefinition::keyLimits).or(() -> declaredLimits(kind))
			.orElse(KeyLimits.DEFAULTS);
		if (limits.clusterConcurrency() > 0) {
			if (concurrencyKey != null) {
				throw new IllegalArgumentException("kind '" + kind + "' has a cluster-wide limit of "
						+ limits.clusterConcurrency() + " (clusterConcurrency): its jobs share the key '"
						+ EnqueueOptions.KIND_KEY_PREFIX + kind + "' and take no concurrency key of their own");
			}
			return new NewJob.KeySlot(EnqueueOptions.KIND_KEY_PREFIX + kind, limits.clusterConcurrency(),
					limits.deadJobBlocksKey());
		}
		if (limits.rateStarts() > 0) {
			return new NewJob.KeySlot(concurrencyKey != null ? concurrencyKey : EnqueueOptions.KIND_KEY_PREFIX + kind,
					limits.rateStarts(), limits.deadJobBlocksKey(), limits.ratePeriod());
		}
		if (concurrencyKey == null) {
			return null;
		}
		return new NewJob.KeySlot(concurrencyKey, limitByPrefix(concurrencyKey).orElse(limits.concurrencyKeyLimit()),
				limits.deadJobBlocksKey());
	}

	private Optional<KeyLimits> declaredLimits(String kind) {
		if (declared == null || System.nanoTime() - readAt > REFRESH.toNanos()) {
			refresh();
		}
		return Optional.ofNullable(declared.get(kind))
			.map(row -> new KeyLimits(row.concurrencyKeyLimit(), row.deadJobBlocksKey(), row.clusterConcurrency(),
					row.rateStarts(), row.ratePeriod()));
	}

	private void refresh() {
		declared = byKind(store.declaredKinds());
		readAt = System.nanoTime();
	}

	private Optional<Integer> limitByPrefix(String key) {
		String longest = null;
		for (String prefix : keyLimitsByPrefix.keySet()) {
			if (key.startsWith(prefix) && (longest == null || prefix.length() > longest.length())) {
				longest = prefix;
			}
		}
		return Optional.ofNullable(longest).map(keyLimitsByPrefix::get);
	}

	private static KindDeclaration declaration(String kind, KeyLimits limits, String node) {
		return new KindDeclaration(kind, limits.concurrencyKeyLimit(), limits.deadJobBlocksKey(),
				limits.clusterConcurrency(), limits.rateStarts(), limits.ratePeriod(), node, null);
	}

	private static Map<String, KindDeclaration> byKind(List<KindDeclaration> declarations) {
		return declarations.stream().collect(Collectors.toMap(KindDeclaration::kind, Function.identity()));
	}

	private static String describe(KindDeclaration limits) {
		return "key limit " + limits.concurrencyKeyLimit() + ", dead job blocks key " + limits.deadJobBlocksKey()
				+ ", cluster concurrency " + limits.clusterConcurrency()
				+ (limits.rateStarts() > 0 ? ", rate " + limits.rateStarts() + "/" + limits.ratePeriod() : "");
	}
}
