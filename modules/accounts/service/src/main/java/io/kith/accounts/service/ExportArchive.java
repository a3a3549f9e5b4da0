package io.kith.accounts.service;

import io.kith.platform.events.Exports;
import io.vertx.core.json.JsonObject;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * One export archive being written: blocking file IO, so every method runs on a worker thread, one at a time.
 *
 * <p>A ZIP stream writes one entry after the other, but a domain's pages mix its files; so each domain's records are
 * first spooled to one file per archive file ({@code <id>-<attempt>.spool/<name>}, a JSON array written item by
 * item), and
 * when the domain's last page came, each spooled file is copied into its entry {@code <domain>/<name>}. Nothing holds
 * more than one page in memory. The archive is {@code <id>-<attempt>.zip.part} until {@link #finish} renames it
 * {@code <id>.zip}, so a half-written archive never looks complete; {@link #abort} deletes what this attempt wrote.
 * The temporary names carry the attempt, so a node that lost its claim (too slow, not dead) and the node that
 * restarted the job never write or delete each other's files.
 */
final class ExportArchive {

  /** The record bytes would pass the export's limit. */
  static final class TooLarge extends RuntimeException {
    TooLarge(long max) {
      super("the export is larger than accounts.export-max-bytes (" + max + " bytes)");
    }
  }

  private final Path spool;
  private final Path part;
  private final Path done;
  private final long maxBytes;
  private final ZipOutputStream zip;
  private final Map<String, Writer> open = new LinkedHashMap<>();
  private final Map<String, Long> counts = new LinkedHashMap<>();
  private final JsonObject domains = new JsonObject();
  private long bytes;

  /** Starts attempt {@code attempt} of the archive of export {@code id} in {@code dir}. */
  ExportArchive(Path dir, long id, int attempt, long maxBytes) {
    this.spool = dir.resolve(id + "-" + attempt + ".spool");
    this.part = dir.resolve(id + "-" + attempt + ".zip.part");
    this.done = dir.resolve(fileName(id));
    this.maxBytes = maxBytes;
    try {
      deleteTree(spool);
      Files.createDirectories(spool);
      zip = new ZipOutputStream(new BufferedOutputStream(Files.newOutputStream(part)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The finished archive's name in the export directory. */
  static String fileName(long id) {
    return id + ".zip";
  }

  /** Deletes the archive of export {@code id} and whatever any attempt left of it in {@code dir}. */
  static void deleteAll(Path dir, long id) throws IOException {
    if (!Files.isDirectory(dir)) {
      return;
    }
    try (Stream<Path> all = Files.list(dir)) {
      for (Path p : all.filter(p -> p.getFileName().toString().startsWith(id + "-")
          || p.getFileName().toString().equals(fileName(id))).toList()) {
        deleteTree(p);
      }
    }
  }

  /** Adds one page of {@code domain}'s records to their spooled files. */
  void append(List<Exports.Record> records) {
    try {
      for (Exports.Record r : records) {
        byte[] item = r.item().toBuffer().getBytes();
        bytes += item.length + 1;
        if (bytes > maxBytes) {
          throw new TooLarge(maxBytes);
        }
        Writer w = open.get(r.file());
        if (w == null) {
          w = Files.newBufferedWriter(spool.resolve(r.file()), StandardCharsets.UTF_8);
          w.write('[');
          open.put(r.file(), w);
        } else {
          w.write(',');
        }
        w.write(new String(item, StandardCharsets.UTF_8));
        counts.merge(r.file(), 1L, Long::sum);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Starts the archive entry {@code <domain>/files/<name>} for a blob's bytes ({@link #blobChunk}, then {@link #endBlob}). */
  void startBlob(String domain, String name) {
    try {
      zip.putNextEntry(new ZipEntry(domain + "/files/" + name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the next chunk of the blob started last, counted against the archive's bound. */
  void blobChunk(byte[] data) {
    bytes += data.length;
    if (bytes > maxBytes) {
      throw new TooLarge(maxBytes);
    }
    try {
      zip.write(data);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Ends the blob's entry. */
  void endBlob() {
    try {
      zip.closeEntry();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Copies the domain's spooled files into the archive as {@code <domain>/<name>} and records their counts. */
  void closeDomain(String domain) {
    JsonObject files = new JsonObject();
    try {
      for (Map.Entry<String, Writer> e : open.entrySet()) {
        e.getValue().write(']');
        e.getValue().close();
        Path spooled = spool.resolve(e.getKey());
        zip.putNextEntry(new ZipEntry(domain + "/" + e.getKey()));
        Files.copy(spooled, zip);
        zip.closeEntry();
        Files.delete(spooled);
        files.put(e.getKey(), counts.get(e.getKey()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    open.clear();
    counts.clear();
    domains.put(domain, new JsonObject().put("files", files));
  }

  /**
   * Writes {@code manifest.json} ({@code header} plus the {@code domains} with their file counts), closes the archive
   * and gives it its final name; completes with its size in bytes.
   */
  long finish(JsonObject header) {
    try {
      zip.putNextEntry(new ZipEntry("manifest.json"));
      OutputStream out = zip;
      out.write(header.copy().put("domains", domains).encodePrettily().getBytes(StandardCharsets.UTF_8));
      zip.closeEntry();
      zip.close();
      Files.move(part, done, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      deleteTree(spool);
      return Files.size(done);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes and deletes everything this attempt wrote. */
  void abort() {
    for (Writer w : open.values()) {
      closeQuietly(w);
    }
    closeQuietly(zip);
    try {
      Files.deleteIfExists(part);
      deleteTree(spool);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      c.close();
    } catch (Exception ignored) {
      // already failing: the files are deleted next
    }
  }

  /** Deletes a directory and what it holds, if it exists. */
  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
