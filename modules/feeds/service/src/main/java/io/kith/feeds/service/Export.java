package io.kith.feeds.service;

import io.kith.platform.events.Exports;
import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Feeds' part of an account export ({@link Exports}, address {@code kith.export.feeds}): the user's posts
 * ({@code posts.json}, with their media descriptors), reposts ({@code reposts.json}, each original embedded as far as
 * the user may see it), comments ({@code comments.json}) and likes ({@code likes.json}, {@code {post, liked_at}}), in
 * that order, each file in id order, as the user's own API view shows them. Pages are read from MongoDB after the
 * cursor {@code <file>:<last id>} (a page may end one file and go on with the next); posts the user deleted are not
 * exported.
 */
final class Export implements Exports.Source {

  /** The files, in export order. */
  static final List<String> FILES = List.of("posts", "reposts", "comments", "likes");
  private static final JsonObject OLDEST = new JsonObject().put("_id", 1);

  private final PostViews views;
  private final Comments comments;
  private final MongoClient mongo;
  private final int pageSize;

  Export(FeedsCore core, PostViews views, Comments comments, int pageSize) {
    if (pageSize < 1 || pageSize > Exports.MAX_RECORDS) {
      throw new IllegalArgumentException("an export page holds 1 to " + Exports.MAX_RECORDS + " records");
    }
    this.views = views;
    this.comments = comments;
    this.mongo = core.platform().mongo();
    this.pageSize = pageSize;
  }

  /** Where a page starts: the file's index in {@link #FILES} and the last id exported of it (0: none). */
  private record Cursor(int file, long after) {

    static Cursor parse(String text) {
      if (text == null) {
        return new Cursor(0, 0);
      }
      int colon = text.indexOf(':');
      int file = colon < 0 ? -1 : FILES.indexOf(text.substring(0, colon));
      try {
        if (file >= 0) {
          return new Cursor(file, Long.parseLong(text.substring(colon + 1)));
        }
      } catch (NumberFormatException e) {
        // refused below, as any cursor feeds never gave
      }
      throw new IllegalArgumentException("not a feeds export cursor: " + text);
    }

    String text() {
      return FILES.get(file) + ":" + after;
    }
  }

  /** One file's records read after a cursor: how many documents were read (some may not be shown), and the last id. */
  private record Read(List<Exports.Record> records, int documents, long last) {
  }

  @Override
  public Future<Exports.Page> page(long user, String cursor) {
    return Future.<Cursor>future(p -> p.complete(Cursor.parse(cursor)))
        .compose(at -> fill(user, at, new ArrayList<>()));
  }

  /** Adds records of the cursor's file to the page, going on with the next files while the page has room. */
  private Future<Exports.Page> fill(long user, Cursor at, List<Exports.Record> records) {
    if (at.file() >= FILES.size()) {
      return Future.succeededFuture(new Exports.Page(records, null));
    }
    int room = pageSize - records.size();
    if (room == 0) {
      return Future.succeededFuture(new Exports.Page(records, at.text()));
    }
    return read(user, at, room).compose(read -> {
      records.addAll(read.records());
      return read.documents() < room ? fill(user, new Cursor(at.file() + 1, 0), records)
          : Future.succeededFuture(new Exports.Page(records, new Cursor(at.file(), read.last()).text()));
    });
  }

  private Future<Read> read(long user, Cursor at, int limit) {
    String file = FILES.get(at.file());
    JsonObject after = new JsonObject().put("$gt", at.after());
    return switch (file) {
      case "posts", "reposts" -> documents(PostStore.POSTS, new JsonObject().put("author", user).put("_id", after)
              .put("deleted", new JsonObject().put("$ne", true))
              .put("repost_of", file.equals("posts") ? new JsonObject().put("$eq", 0) : new JsonObject().put("$gt", 0)),
          limit, docs -> views.hydrate(user, docs, false), file);
      case "comments" -> documents(PostStore.COMMENTS, new JsonObject().put("author", user).put("_id", after), limit,
          docs -> comments.commentViews(user, docs), file);
      default -> documents(PostStore.LIKES, new JsonObject().put("u", user).put("_id", after), limit,
          docs -> Future.succeededFuture(docs.stream().map(d -> new JsonObject().put("post", d.getLong("p"))
              .put("liked_at", IdGenerator.timeOf(d.getLong("_id")))).toList()), file);
    };
  }

  /** Reads up to {@code limit} documents in id order and turns them into the file's records with {@code shown}. */
  private Future<Read> documents(String collection, JsonObject query, int limit,
                                 Function<List<JsonObject>, Future<List<JsonObject>>> shown,
                                 String file) {
    return mongo.findWithOptions(collection, query, new FindOptions().setSort(OLDEST).setLimit(limit))
        .compose(docs -> docs.isEmpty() ? Future.succeededFuture(new Read(List.of(), 0, 0))
            : shown.apply(docs).map(items -> new Read(items.stream()
                .map(item -> new Exports.Record(file + ".json", item)).toList(), docs.size(),
                docs.get(docs.size() - 1).getLong("_id"))));
  }
}
