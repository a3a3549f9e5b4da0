package io.kith.app;

import io.kith.platform.store.StoreStartException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The data directory of the embedded stores, held with an exclusive file lock so that two Kith processes never share
 * it, and a pidfile naming the holder. The lock dies with the process (even on SIGKILL), so a stale pidfile never
 * blocks the next start.
 */
final class DataDir implements AutoCloseable {

  private static final String LOCK = "kith.lock";
  private static final String PIDFILE = "kith.pid";

  private final Path dir;
  private final FileChannel channel;
  private final FileLock lock;

  private DataDir(Path dir, FileChannel channel, FileLock lock) {
    this.dir = dir;
    this.channel = channel;
    this.lock = lock;
  }

  static DataDir acquire(Path dir) {
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new StoreStartException("cannot create data directory " + dir + " (" + e.getMessage()
          + "): set kith.data-dir (KITH_DATA_DIR) to a writable directory");
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(dir.resolve(LOCK), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        lock = null;
      }
      if (lock == null) {
        channel.close();
        throw new StoreStartException("data directory " + dir.toAbsolutePath() + " is in use by another Kith"
            + holder(dir) + ": stop it, or give this one another kith.data-dir (KITH_DATA_DIR)");
      }
      Files.writeString(dir.resolve(PIDFILE), Long.toString(ProcessHandle.current().pid()), StandardCharsets.US_ASCII);
      return new DataDir(dir, channel, lock);
    } catch (IOException e) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException ignored) {
          // already failing
        }
      }
      throw new StoreStartException("cannot lock data directory " + dir + ": " + e.getMessage());
    }
  }

  private static String holder(Path dir) {
    try {
      return " (pid " + Files.readString(dir.resolve(PIDFILE), StandardCharsets.US_ASCII).trim() + ")";
    } catch (IOException e) {
      return "";
    }
  }

  Path path() {
    return dir;
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(dir.resolve(PIDFILE));
      lock.release();
      channel.close();
    } catch (IOException ignored) {
      // the lock dies with the process anyway
    }
  }
}
