package io.kith.bench.jvm;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The bench's handle on an {@link IdleClients} JVM: starts it with this JVM's {@code java} and class path, sends it
 * commands and waits for their answers. Every call blocks: use it from a worker thread, never an event loop.
 */
public final class IdleClientsProcess implements AutoCloseable {

  /** Marks the end of the stream in the queue of lines. */
  private static final String EOF = "\u0000eof";

  private final Process process;
  private final BufferedWriter commands;
  private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

  private IdleClientsProcess(Process process) {
    this.process = process;
    this.commands = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
    Thread reader = new Thread(() -> {
      try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
          StandardCharsets.UTF_8))) {
        String line;
        while ((line = out.readLine()) != null) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended
      }
      lines.add(EOF);
    }, "kith-bench-idle-clients-reader");
    reader.setDaemon(true);
    reader.start();
  }

  /** The command line of the client JVM (its errors and logs go to this process's stderr). */
  static List<String> command(String javaHome, String classPath, String host, int port, long timeoutMillis) {
    List<String> command = new ArrayList<>();
    command.add(Path.of(javaHome, "bin", "java").toString());
    command.add("-cp");
    command.add(classPath);
    command.add(IdleClients.class.getName());
    command.add(host);
    command.add(Integer.toString(port));
    command.add(Long.toString(timeoutMillis));
    return command;
  }

  /**
   * Starts the client JVM for the Kith bridge at {@code host:port} and waits until it is ready.
   *
   * @param timeoutMillis the clients' connect timeout
   */
  public static IdleClientsProcess start(String host, int port, long timeoutMillis) throws IOException {
    ProcessBuilder builder = new ProcessBuilder(command(System.getProperty("java.home"),
        System.getProperty("java.class.path"), host, port, timeoutMillis))
        .redirectError(ProcessBuilder.Redirect.INHERIT);
    IdleClientsProcess client = new IdleClientsProcess(builder.start());
    try {
      expect(client.next(60_000), "ready");
    } catch (RuntimeException e) {
      client.close();
      throw new IllegalStateException("the client JVM did not start: " + e.getMessage(), e);
    }
    return client;
  }

  /**
   * Sends {@code command} and answers the reply line.
   *
   * @throws IllegalStateException with the client's message when it answers {@code error ...}, when it does not
   *                               answer within {@code timeoutMillis}, or when it ended
   */
  public String call(String command, long timeoutMillis) {
    try {
      commands.write(command);
      commands.newLine();
      commands.flush();
    } catch (IOException e) {
      throw new IllegalStateException("the client JVM does not take commands: " + e.getMessage(), e);
    }
    return next(timeoutMillis);
  }

  private String next(long timeoutMillis) {
    String line;
    try {
      line = lines.poll(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for the client JVM", e);
    }
    if (line == null) {
      throw new IllegalStateException("the client JVM did not answer within " + timeoutMillis + " ms");
    }
    if (line.equals(EOF)) {
      lines.add(EOF);
      throw new IllegalStateException("the client JVM ended (see its messages above)");
    }
    if (line.startsWith("error ")) {
      throw new IllegalStateException(line.substring("error ".length()));
    }
    return line;
  }

  /**
   * The number in a reply {@code "<word> <number>"}, such as {@code heap 123456}.
   *
   * @throws IllegalStateException when the reply is not of that form
   */
  public static long number(String reply, String word) {
    String[] parts = reply.strip().split("\\s+");
    if (parts.length != 2 || !parts[0].equals(word)) {
      throw new IllegalStateException("expected '" + word + " <number>' from the client JVM, got '" + reply + "'");
    }
    try {
      return Long.parseLong(parts[1]);
    } catch (NumberFormatException e) {
      throw new IllegalStateException("expected '" + word + " <number>' from the client JVM, got '" + reply + "'");
    }
  }

  private static void expect(String reply, String word) {
    if (!reply.equals(word)) {
      throw new IllegalStateException("expected '" + word + "' from the client JVM, got '" + reply + "'");
    }
  }

  /** Asks the client JVM to exit, and ends it if it does not within a few seconds. */
  @Override
  public void close() {
    try {
      if (process.isAlive()) {
        call("exit", 10_000);
      }
    } catch (RuntimeException e) {
      // ended or stuck: destroyed below
    }
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }
}
