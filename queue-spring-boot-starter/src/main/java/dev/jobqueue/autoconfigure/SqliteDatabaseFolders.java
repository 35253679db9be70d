package dev.jobqueue.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.sql.DataSource;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.BeanWrapper;
import org.springframework.beans.BeansException;
import org.springframework.beans.PropertyAccessorFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;

/**
 * Creates the folder of a SQLite database file before its {@code DataSource} opens a connection. SQLite
 * creates a missing file but not a missing folder, and {@code jdbc:sqlite:data/app.db} without {@code data/}
 * would fail at the first connection (whoever opens it: the pool, Flyway, the queue) with
 * {@code SQLITE_CANTOPEN} deep in a chain of causes. A folder that cannot be created fails the startup in
 * one line naming it.
 */
final class SqliteDatabaseFolders implements BeanPostProcessor {

	private static final Logger log = LoggerFactory.getLogger(SqliteDatabaseFolders.class);

	private static final String PREFIX = "jdbc:sqlite:";

	@Override
	public Object postProcessBeforeInitialization(Object bean, String beanName) {
		if (bean instanceof DataSource) {
			String url = url(bean);
			Path file = databaseFile(url);
			if (file != null && file.toAbsolutePath().getParent() != null) {
				createFolder(file.toAbsolutePath().getParent(), url);
			}
		}
		return bean;
	}

	/** The URL a pool or driver data source was configured with, read as a bean property: no connection. */
	private static String url(Object dataSource) {
		BeanWrapper properties = PropertyAccessorFactory.forBeanPropertyAccess(dataSource);
		for (String name : new String[] { "jdbcUrl", "url" }) {
			try {
				if (properties.isReadableProperty(name) && properties.getPropertyValue(name) instanceof String url) {
					return url;
				}
			}
			catch (BeansException ex) {
				log.debug("Could not read the {} of a DataSource", name, ex);
			}
		}
		return null;
	}

	/**
	 * The file of a SQLite URL ({@code jdbc:sqlite:data/app.db}, {@code jdbc:sqlite:file:data/app.db?…}), or
	 * null for any other URL and for databases that are no file (in memory, a class-path resource).
	 */
	static Path databaseFile(String url) {
		if (url == null || !url.startsWith(PREFIX) || url.contains("mode=memory")) {
			return null;
		}
		String name = url.substring(PREFIX.length());
		name = name.startsWith("file:") ? name.substring("file:".length()) : name;
		int query = name.indexOf('?');
		name = query >= 0 ? name.substring(0, query) : name;
		if (name.isEmpty() || name.startsWith(":memory:") || name.startsWith(":resource:")) {
			return null;
		}
		return Path.of(name);
	}

	private static void createFolder(Path folder, String url) {
		if (Files.isDirectory(folder)) {
			return;
		}
		try {
			Files.createDirectories(folder);
			log.info("Created the folder {} of the SQLite database {}", folder, url);
		}
		catch (IOException ex) {
			throw new JobQueueStartupException("Cannot create the folder " + folder + " of the SQLite database " + url
					+ ": " + ex, "Create the folder, or give the DataSource a URL in a folder the application can "
							+ "write (spring.datasource.url).",
					ex);
		}
	}
}
