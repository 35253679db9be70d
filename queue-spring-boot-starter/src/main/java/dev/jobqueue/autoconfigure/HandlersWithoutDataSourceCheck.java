package dev.jobqueue.autoconfigure;

import java.lang.reflect.Method;
import java.util.Map;

import org.springframework.aop.framework.autoproxy.AutoProxyUtils;
import org.springframework.aop.scope.ScopedProxyUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.BeanFactoryAware;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.util.ClassUtils;

import dev.jobqueue.spring.JobHandler;

/**
 * Without a {@code DataSource} the queue is not set up, and {@link JobHandler} methods would never run
 * without a word: fails the startup at the first one found, with a report of what to add.
 */
final class HandlersWithoutDataSourceCheck implements SmartInitializingSingleton, BeanFactoryAware {

	private ConfigurableListableBeanFactory beanFactory;

	@Override
	public void setBeanFactory(BeanFactory beanFactory) {
		this.beanFactory = (ConfigurableListableBeanFactory) beanFactory;
	}

	@Override
	public void afterSingletonsInstantiated() {
		for (String beanName : beanFactory.getBeanNamesForType(Object.class, false, false)) {
			if (!ScopedProxyUtils.isScopedTarget(beanName)) {
				failOnHandlerOf(beanName);
			}
		}
	}

	private void failOnHandlerOf(String beanName) {
		Class<?> type = AutoProxyUtils.determineTargetClass(beanFactory, beanName);
		Map<Method, JobHandler> handlers = type == null ? Map.of()
				: JobHandlerMethodProcessor.annotatedMethods(type, JobHandler.class);
		if (!handlers.isEmpty()) {
			Method method = handlers.keySet().iterator().next();
			throw new JobQueueStartupException(NoDataSource.description("@JobHandler bean '" + beanName + "' method "
					+ ClassUtils.getQualifiedMethodName(method) + JobHandlerMethod.parameterList(method)
					+ " handles jobs of kind '" + handlers.get(method).kind() + "'"), NoDataSource.ACTION, null);
		}
	}
}
