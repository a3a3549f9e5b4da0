package io.kith.feeds.service.media;

import io.kith.platform.events.Exports;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.MongoClient;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The user's uploads in their account export (export domain {@value #DOMAIN}): {@code media.json} lists every ready
 * upload the user owns with its descriptor, and each names its bytes as a blob ({@code media/files/<id>.<ext>} in the
 * archive), served one GridFS chunk at a time. Only the owner's own uploads: an upload of someone else is refused.
 */
final class MediaExport {

  static final String DOMAIN = "media";
  private static final int PAGE = 200;
  private static final Map<String, String> EXTENSIONS = Map.of("image/jpeg", "jpg", "image/png", "png",
      "image/gif", "gif", "image/webp", "webp", "video/mp4", "mp4", "video/quicktime", "mov", "video/webm", "webm");

  private final MongoClient mongo;
  private final MediaStore store;

  MediaExport(MongoClient mongo, MediaStore store) {
    this.mongo = mongo;
    this.store = store;
  }

  /** The page of the user's ready uploads after the id {@code cursor}, oldest first. */
  Future<Exports.Page> page(long user, String cursor) {
    long after;
    try {
      after = cursor == null ? 0 : Long.parseLong(cursor);
    } catch (NumberFormatException e) {
      return Future.failedFuture(new IllegalArgumentException("not a media export cursor: " + cursor));
    }
    JsonObject query = new JsonObject().put("owner", user).put("state", MediaStore.READY)
        .put("_id", new JsonObject().put("$gt", after));
    return mongo.findWithOptions(MediaStore.ITEMS, query, new FindOptions()
        .setSort(new JsonObject().put("_id", 1)).setLimit(PAGE)).map(docs -> {
          List<Exports.Record> records = new ArrayList<>(docs.size());
          for (JsonObject doc : docs) {
            long id = doc.getLong("_id");
            String ext = EXTENSIONS.getOrDefault(doc.getString("content_type"), "bin");
            records.add(new Exports.Record("media.json", MediaStore.descriptor(doc)
                .put("created", doc.getLong("created"))
                .put(Exports.BLOB, new JsonObject().put("id", Long.toString(id)).put("name", id + "." + ext))));
          }
          String next = docs.size() < PAGE ? null : Long.toString(docs.get(docs.size() - 1).getLong("_id"));
          return new Exports.Page(records, next);
        });
  }

  /** Chunk {@code n} of the user's own upload {@code id}. */
  Future<Exports.Chunk> chunk(long user, String id, int n) {
    long mediaId;
    try {
      mediaId = Long.parseLong(id);
    } catch (NumberFormatException e) {
      return Future.failedFuture(new IllegalArgumentException("no media " + id));
    }
    return store.find(mediaId).compose(record -> {
      if (record == null || record.getLong("owner", 0L) != user) {
        return Future.failedFuture(new IllegalArgumentException("no media " + id + " of this user"));
      }
      long size = record.getLong("size", 0L);
      int chunkSize = record.getInteger("chunk_size", MediaStore.CHUNK_SIZE);
      int chunks = (int) Math.max(1, (size + chunkSize - 1) / chunkSize);
      if (n >= chunks) {
        return Future.failedFuture(new IllegalArgumentException("media " + id + " has " + chunks + " chunks"));
      }
      if (size == 0) {
        return Future.succeededFuture(new Exports.Chunk(new byte[0], 1));
      }
      return store.chunk(record, n).map(data -> new Exports.Chunk(data.getBytes(), chunks));
    });
  }
}
