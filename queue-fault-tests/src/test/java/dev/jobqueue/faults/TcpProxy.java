package dev.jobqueue.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay in the test's JVM between the workers and the database, so that a test can take the
 * database away: {@link #cut()} closes every relayed connection and refuses new ones, as a database
 * that went down would; {@link #restore()} accepts connections again on the same port.
 */
final class TcpProxy implements AutoCloseable {

	private final InetSocketAddress target;

	private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();

	private final int port;

	private ServerSocket server;

	TcpProxy(String host, int targetPort) throws IOException {
		this.target = new InetSocketAddress(host, targetPort);
		this.server = listen(0);
		this.port = server.getLocalPort();
	}

	int port() {
		return port;
	}

	/** Closes every connection and stops listening: connects are refused until {@link #restore()}. */
	synchronized void cut() throws IOException {
		server.close();
		for (Socket socket : sockets) {
			socket.close();
		}
		sockets.clear();
	}

	synchronized void restore() throws IOException {
		if (server.isClosed()) {
			server = listen(port);
		}
	}

	private ServerSocket listen(int localPort) throws IOException {
		ServerSocket listening = new ServerSocket();
		listening.setReuseAddress(true);
		listening.bind(new InetSocketAddress("127.0.0.1", localPort));
		daemon("proxy-accept", () -> acceptAll(listening));
		return listening;
	}

	private void acceptAll(ServerSocket listening) {
		while (!listening.isClosed()) {
			try {
				Socket client = listening.accept();
				Socket upstream = new Socket();
				upstream.connect(target);
				sockets.add(client);
				sockets.add(upstream);
				daemon("proxy-up", () -> relay(client, upstream));
				daemon("proxy-down", () -> relay(upstream, client));
			}
			catch (IOException ex) {
				// The listening socket was closed by cut(), or one connect failed: the loop condition decides.
			}
		}
	}

	private void relay(Socket from, Socket to) {
		byte[] buffer = new byte[16 * 1024];
		try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
			int read;
			while ((read = in.read(buffer)) >= 0) {
				out.write(buffer, 0, read);
			}
		}
		catch (IOException ex) {
			// Either side closed: close both, below.
		}
		finally {
			close(from);
			close(to);
		}
	}

	private void close(Socket socket) {
		sockets.remove(socket);
		try {
			socket.close();
		}
		catch (IOException ignored) {
			// Already closed.
		}
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	@Override
	public synchronized void close() throws IOException {
		cut();
	}
}
