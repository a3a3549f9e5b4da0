package io.kith.platform.events;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The account export contract between accounts (which builds the archive of {@code POST /api/v1/me/export}) and every
 * domain holding data of the user. Each domain serves its part at {@code kith.export.<domain>} ({@link #serve}, an
 * internal address: the bridges never permit it), in pages the exporter asks for one after the other
 * ({@link #fetch}): a request {@code {user, cursor}} (cursor null for the first page) is answered with
 * {@code {records: [{file, item}...], cursor}} of at most {@value #MAX_RECORDS} records, the cursor null after the last
 * page. A record's {@code file} names the JSON file of the archive the item belongs to ({@code posts.json} becomes
 * {@code <domain>/posts.json}, one JSON array per file), and its item is the object as the user's own API view shows
 * it. The cursor is the domain's own opaque text.
 *
 * <p>Bytes (the user's photos and videos) travel apart from the records: an item carrying
 * {@code blob: {id, name}} asks the exporter to write the bytes the domain serves at {@code kith.export.<domain>.blob}
 * ({@link #serveBlobs}) as {@code <domain>/files/<name>}, fetched one chunk of at most {@value #MAX_CHUNK} bytes at a
 * time ({@link #fetchBlob}). The contract is written in the accounts README, "Export".
 */
public final class Exports {

  /** Prefix of the export addresses. */
  public static final String PREFIX = "kith.export.";
  /** The domains whose parts an export asks for, in the archive's order. */
  public static final List<String> DOMAINS =
      List.of("accounts", "relations", "feeds", "media", "messaging", "activities", "notifications",
          "push", "moderation");
  /** The most records one page may carry. */
  public static final int MAX_RECORDS = 500;

  /** The most bytes one blob chunk may carry. */
  public static final int MAX_CHUNK = 256 * 1024;
  /** The item member naming a blob: {@code {id, name}}. */
  public static final String BLOB = "blob";

  private static final Pattern FILE = Pattern.compile("[a-z][a-z0-9_-]{0,40}\\.json");
  private static final Pattern BLOB_NAME = Pattern.compile("[a-z0-9][a-z0-9_-]{0,80}(\\.[a-z0-9]{1,8})?");

  private Exports() {
  }

  /** One item of the export, in the archive file {@code file} of its domain. */
  public record Record(String file, JsonObject item) {
  }

  /** One page of a domain's part: its records and the cursor of the next page (null after the last). */
  public record Page(List<Record> records, String cursor) {

    /** A page, checked: at most {@value #MAX_RECORDS} records, each file named {@code lowercase-name.json}. */
    public Page {
      records = List.copyOf(records);
      if (records.size() > MAX_RECORDS) {
        throw new IllegalArgumentException("an export page holds at most " + MAX_RECORDS + " records");
      }
      for (Record r : records) {
        if (r.file() == null || !FILE.matcher(r.file()).matches() || r.item() == null) {
          throw new IllegalArgumentException("bad export record file: " + r.file());
        }
        JsonObject blob = r.item().getJsonObject(BLOB);
        if (blob != null && (blob.getString("id") == null || blob.getString("name") == null
            || !BLOB_NAME.matcher(blob.getString("name")).matches())) {
          throw new IllegalArgumentException("bad export blob: " + blob.encode());
        }
      }
    }

    /** The page as it travels on the event bus. */
    public JsonObject toJson() {
      JsonArray all = new JsonArray();
      for (Record r : records) {
        all.add(new JsonObject().put("file", r.file()).put("item", r.item()));
      }
      return new JsonObject().put("records", all).put("cursor", cursor);
    }

    /** A page read from the event bus. */
    public static Page fromJson(JsonObject json) {
      JsonArray all = json.getJsonArray("records", new JsonArray());
      List<Record> records = new ArrayList<>(all.size());
      for (int i = 0; i < all.size(); i++) {
        JsonObject r = all.getJsonObject(i);
        records.add(new Record(r.getString("file"), r.getJsonObject("item")));
      }
      return new Page(records, json.getString("cursor"));
    }
  }

  /** A domain's part of an export: the page after {@code cursor} (null: the first) of {@code user}'s data. */
  @FunctionalInterface
  public interface Source {
    /** The page of {@code user}'s data after {@code cursor}. */
    Future<Page> page(long user, String cursor);
  }

  /** One chunk of a blob: its bytes and how many chunks the blob has. */
  public record Chunk(byte[] data, int chunks) {
  }

  /** A domain's blobs: chunk {@code n} (from 0) of blob {@code id} of {@code user}, failing when not theirs. */
  @FunctionalInterface
  public interface BlobSource {
    /** Chunk {@code n} of {@code user}'s blob {@code id}. */
    Future<Chunk> chunk(long user, String id, int n);
  }

  /** The export address of {@code domain}. */
  public static String address(String domain) {
    return PREFIX + domain;
  }

  /**
   * Serves {@code domain}'s part of exports on this node until the returned consumer is unregistered (the module's
   * verticle stops). A failure of the source is answered as a failure, never as a short page.
   */
  public static MessageConsumer<JsonObject> serve(Vertx vertx, String domain, Source source) {
    return vertx.eventBus().<JsonObject>consumer(address(domain), message -> {
      JsonObject body = message.body();
      Long user = body == null ? null : body.getLong("user");
      if (user == null || user <= 0) {
        message.fail(400, "export request without a user");
        return;
      }
      Future<Page> page;
      try {
        page = source.page(user, body.getString("cursor"));
      } catch (RuntimeException e) {
        page = Future.failedFuture(e);
      }
      page.onSuccess(p -> message.reply(p.toJson()))
          .onFailure(e -> message.fail(500, domain + " export failed: " + e.getMessage()));
    });
  }

  /** Serves {@code domain}'s blobs at {@code kith.export.<domain>.blob} until the consumer is unregistered. */
  public static MessageConsumer<JsonObject> serveBlobs(Vertx vertx, String domain, BlobSource source) {
    return vertx.eventBus().<JsonObject>consumer(address(domain) + ".blob", message -> {
      JsonObject body = message.body();
      Long user = body == null ? null : body.getLong("user");
      String id = body == null ? null : body.getString("id");
      Integer n = body == null ? null : body.getInteger("n");
      if (user == null || user <= 0 || id == null || n == null || n < 0) {
        message.fail(400, "blob request needs user, id and n");
        return;
      }
      Future<Chunk> chunk;
      try {
        chunk = source.chunk(user, id, n);
      } catch (RuntimeException e) {
        chunk = Future.failedFuture(e);
      }
      chunk.onSuccess(c -> {
        if (c.data().length > MAX_CHUNK) {
          message.fail(500, domain + " served a chunk over " + MAX_CHUNK + " bytes");
        } else {
          message.reply(new JsonObject().put("data", c.data()).put("chunks", c.chunks()));
        }
      }).onFailure(e -> message.fail(500, domain + " blob failed: " + e.getMessage()));
    });
  }

  /** Asks {@code domain} for chunk {@code n} of {@code user}'s blob {@code id}, waiting at most {@code timeoutMs}. */
  public static Future<Chunk> fetchBlob(Vertx vertx, String domain, long user, String id, int n, long timeoutMs) {
    return vertx.eventBus().<JsonObject>request(address(domain) + ".blob",
            new JsonObject().put("user", user).put("id", id).put("n", n), new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(reply -> new Chunk(reply.body().getBinary("data"), reply.body().getInteger("chunks")));
  }

  /** Asks {@code domain} for the page of {@code user}'s data after {@code cursor}, waiting at most {@code timeoutMs}. */
  public static Future<Page> fetch(Vertx vertx, String domain, long user, String cursor, long timeoutMs) {
    return vertx.eventBus().<JsonObject>request(address(domain), new JsonObject().put("user", user).put("cursor", cursor),
        new DeliveryOptions().setSendTimeout(timeoutMs)).map(reply -> Page.fromJson(reply.body()));
  }
}
