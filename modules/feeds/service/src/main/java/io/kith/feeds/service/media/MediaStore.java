package io.kith.feeds.service.media;

import io.kith.feeds.api.FeedsErrors;
import io.kith.platform.error.Failures;
import io.kith.platform.id.IdGenerator;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.mongo.FindOptions;
import io.vertx.ext.mongo.IndexOptions;
import io.vertx.ext.mongo.MongoClient;
import io.vertx.ext.mongo.MongoGridFsClient;
import io.vertx.ext.mongo.UpdateOptions;
import org.bson.types.ObjectId;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Media of posts: one record per upload in {@value #ITEMS} ({@code {_id: <media id>, owner, kind, content_type,
 * size, file, chunk_size, state: "uploading"|"ready", created, posts: [post ids]}}) and its bytes in the GridFS bucket
 * {@value #BUCKET} ({@code media.files} and {@code media.chunks}, laid out as the GridFS specification says, so
 * GridFS tools read them).
 *
 * <p>The bytes are written and read chunk by chunk on the chunks collection rather than through the driver's
 * upload and download streams: the driver's upload requests up to 256 chunks ahead of what it has stored (so a fast
 * client would fill memory), and GridFS has no range reads. Deletion goes through {@link MongoGridFsClient}. Range
 * reads use the unique (files_id, n) index that GridFS defines.
 *
 * <p>Public for the feeds service in the parent package, which attaches media to posts and detaches them; the rest
 * stays package-private to media.
 */
public final class MediaStore {

  private static final Logger LOG = LoggerFactory.getLogger(MediaStore.class);
  static final String ITEMS = "media_items";
  static final String BUCKET = "media";
  static final String FILES = BUCKET + ".files";
  static final String CHUNKS = BUCKET + ".chunks";
  /** GridFS chunk size (the GridFS default, 255 KiB). */
  static final int CHUNK_SIZE = 255 * 1024;
  static final String UPLOADING = "uploading";
  static final String READY = "ready";
  /** Member of a media record: the objects of other domains it is attached to, as {@code "<domain>:<id>"}. */
  static final String ATTACHED = "attached";
  /** Condition of a record attached to nothing (an attachment is never taken back, so the member is absent). */
  private static JsonObject none() {
    return new JsonObject().put("$exists", false);
  }
  static final int MAX_IMAGES = 9;
  /** Most posts one media may be used by (a read checks the visibility of each of them). */
  static final int MAX_POSTS_PER_MEDIA = 20;

  private final MongoClient mongo;
  private final IdGenerator ids;
  private MongoGridFsClient gridFs;

  /** A store on the node's MongoDB client, minting media ids with {@code ids}. */
  public MediaStore(MongoClient mongo, IdGenerator ids) {
    this.mongo = mongo;
    this.ids = ids;
  }

  /** Creates collections and indexes. */
  public Future<Void> ensureIndexes() {
    return mongo.createIndexWithOptions(ITEMS, new JsonObject().put("created", 1),
            new IndexOptions().name("created"))
        // the indexes the GridFS specification defines (drivers create them on a first upload through them)
        .compose(v -> mongo.createIndexWithOptions(CHUNKS, new JsonObject().put("files_id", 1).put("n", 1),
            new IndexOptions().name("files_id_1_n_1").unique(true)))
        .compose(v -> mongo.createIndexWithOptions(FILES, new JsonObject().put("filename", 1).put("uploadDate", 1),
            new IndexOptions().name("filename_1_uploadDate_1")))
        .compose(v -> mongo.createGridFsBucketService(BUCKET))
        .map(client -> {
          gridFs = client;
          return null;
        });
  }

  // ---------------------------------------------------------------- posts

  /**
   * Marks the media as used by {@code postId} after checking that every id exists and was uploaded by {@code owner},
   * and that the set is a valid post attachment (1..9 images, or one video with at most one image as its cover).
   * Fails with {@code FeedsErrors.INVALID_MEDIA} (extra {@code media}: the offending ids) otherwise.
   *
   * @return one media view per id, in the given order ({@link MediaPipeline#view}: {@code {id, kind, content_type,
   *     size, state, width?, height?, duration_ms?, codec?, variants}}), stored in the post so that a feed shows
   *     thumbnails and covers without a call per media; a video still processing is updated when it settles
   */
  public Future<List<JsonObject>> attach(long owner, List<Long> mediaIds, long postId) {
    if (mediaIds.isEmpty()) {
      return Future.succeededFuture(List.of());
    }
    Set<Long> seen = new LinkedHashSet<>();
    List<Long> repeated = new ArrayList<>();
    for (Long id : mediaIds) {
      if (id == null || !seen.add(id)) {
        repeated.add(id);
      }
    }
    if (!repeated.isEmpty()) {
      return invalid(repeated, "each media id may appear once in a post");
    }
    JsonArray idArray = new JsonArray(List.copyOf(mediaIds));
    return mongo.find(ITEMS, new JsonObject().put("_id", new JsonObject().put("$in", idArray))).compose(docs -> {
      Map<Long, JsonObject> byId = new HashMap<>();
      docs.forEach(d -> byId.put(d.getLong("_id"), d));
      Future<List<JsonObject>> refused = refusal(owner, mediaIds, byId);
      return refused != null ? refused : markUsed(owner, mediaIds, idArray, byId, postId);
    });
  }

  /** Why these media (as read, {@code byId}) cannot be attached to one of the owner's posts, or null when they can. */
  private static <T> Future<T> refusal(long owner, List<Long> mediaIds, Map<Long, JsonObject> byId) {
    List<Long> unusable = new ArrayList<>();
    List<Long> images = new ArrayList<>();
    List<Long> videos = new ArrayList<>();
    for (long id : mediaIds) {
      JsonObject doc = byId.get(id);
      if (doc == null || doc.getLong("owner", 0L) != owner || !READY.equals(doc.getString("state"))
          || MediaPipeline.failed(doc)) {
        unusable.add(id);
      } else if (doc.getJsonArray("posts", new JsonArray()).size() >= MAX_POSTS_PER_MEDIA) {
        return invalid(List.of(id), "a media may be used by at most " + MAX_POSTS_PER_MEDIA + " posts");
      } else if (MediaSniffer.VIDEO.equals(doc.getString("kind"))) {
        videos.add(id);
      } else {
        images.add(id);
      }
    }
    if (!unusable.isEmpty()) {
      return invalid(unusable, "media " + unusable
          + " do not exist, were not uploaded by the author, or failed processing (see their state)");
    }
    if (videos.size() > 1) {
      return invalid(videos.subList(1, videos.size()), "a post carries at most one video");
    }
    if (videos.size() == 1 && images.size() > 1) {
      return invalid(images.subList(1, images.size()), "a video post carries at most one image, its cover");
    }
    if (images.size() > MAX_IMAGES) {
      return invalid(images.subList(MAX_IMAGES, images.size()), "a post carries at most 9 images");
    }
    return null;
  }

  /** Adds the post to the media's users; their views, or invalid_media when one was removed meanwhile. */
  private Future<List<JsonObject>> markUsed(long owner, List<Long> mediaIds, JsonArray idArray,
                                            Map<Long, JsonObject> byId, long postId) {
    JsonObject query = new JsonObject().put("_id", new JsonObject().put("$in", idArray)).put("owner", owner)
        .put("state", READY).put(MediaPipeline.STATUS, MediaPipeline.notFailed());
    return mongo.updateCollectionWithOptions(ITEMS, query,
            new JsonObject().put("$addToSet", new JsonObject().put("posts", postId)),
            new UpdateOptions().setMulti(true))
        .compose(r -> {
          if (r.getDocMatched() == mediaIds.size()) {
            List<JsonObject> out = new ArrayList<>();
            mediaIds.forEach(id -> out.add(MediaPipeline.view(byId.get(id))));
            return Future.succeededFuture(out);
          }
          // a media was removed (swept or detached elsewhere) between the check and the update: take back the
          // references just added (only them: the media stay as they were)
          return mongo.updateCollectionWithOptions(ITEMS, new JsonObject().put("_id", new JsonObject().put("$in", idArray)),
                  new JsonObject().put("$pull", new JsonObject().put("posts", postId)), new UpdateOptions().setMulti(true))
              .compose(x -> invalid(mediaIds, "media were removed meanwhile; upload them again"));
        });
  }

  /**
   * Records that the owner's ready media {@code mediaId} is used by {@code use} ({@code "<domain>:<id>"}, see
   * {@code MediaAttachments}); from then on it is never swept, nor removed with a post, and it no longer counts as
   * unattached. Fails with {@code invalid_media} (extra {@code media}) when it does not exist, is not ready, failed
   * processing, or was uploaded by someone else, all alike.
   *
   * @return the media's view ({@link MediaPipeline#view}: with its state and variants), which the domain keeps with
   *     its object; a video still {@code processing} settles later, and the domains carrying it are then told
   *     ({@code MediaProcessed}) so that the state they keep follows
   */
  Future<JsonObject> attachTo(long owner, long mediaId, String use) {
    JsonObject query = new JsonObject().put("_id", mediaId).put("owner", owner).put("state", READY)
        .put(MediaPipeline.STATUS, MediaPipeline.notFailed());
    return mongo.findOneAndUpdateWithOptions(ITEMS, query,
            new JsonObject().put("$addToSet", new JsonObject().put(ATTACHED, use)), new FindOptions(),
            new UpdateOptions().setReturningNewDocument(true))
        .compose(doc -> doc == null
            ? invalid(List.of(mediaId), "media " + mediaId
                + " does not exist, was not uploaded by you, or failed processing (see its state)")
            : Future.succeededFuture(MediaPipeline.view(doc)));
  }

  private static <T> Future<T> invalid(List<Long> offending, String detail) {
    return Future.failedFuture(Failures.withExtra(FeedsErrors.INVALID_MEDIA, detail,
        new JsonObject().put("media", new JsonArray(new ArrayList<>(offending)))));
  }

  /** Drops {@code postId}'s use of the media and removes every one of them that nothing else uses any more. */
  public Future<Void> detach(long postId, List<Long> mediaIds) {
    List<Future<Void>> all = new ArrayList<>();
    for (long id : new LinkedHashSet<>(mediaIds)) {
      all.add(mongo.findOneAndUpdateWithOptions(ITEMS, new JsonObject().put("_id", id).put("posts", postId),
              new JsonObject().put("$pull", new JsonObject().put("posts", postId)), new FindOptions(),
              new UpdateOptions().setReturningNewDocument(true))
          .compose(doc -> doc != null && doc.getJsonArray("posts", new JsonArray()).isEmpty()
              ? removeIfUnused(doc).mapEmpty() : Future.succeededFuture()));
    }
    return Future.all(all).mapEmpty();
  }

  /** Deletes a media and its bytes if no post uses it (a concurrent attach wins); true when deleted. */
  private Future<Boolean> removeIfUnused(JsonObject doc) {
    JsonObject unused = new JsonObject().put("_id", doc.getLong("_id"))
        .put("posts", new JsonObject().put("$size", 0)).put(ATTACHED, none());
    return mongo.removeDocument(ITEMS, unused).compose(r -> r != null && r.getRemovedCount() > 0
        ? deleteAllBytes(doc).map(true) : Future.succeededFuture(false));
  }

  /** Deletes a record's bytes and those of its variants (the pipeline's thumbnails and cover). */
  private Future<Void> deleteAllBytes(JsonObject doc) {
    List<Future<Void>> all = new ArrayList<>();
    all.add(deleteBytes(doc.getString("file")));
    for (Object v : doc.getJsonArray(MediaPipeline.VARIANTS, new JsonArray())) {
      all.add(deleteBytes(((JsonObject) v).getString("file")));
    }
    return Future.all(all).mapEmpty();
  }

  Future<Void> deleteBytes(String file) {
    // GridFS delete removes the files document and the chunks; an upload that never finished has chunks only
    return gridFs.delete(file)
        .recover(e -> mongo.removeDocuments(CHUNKS, new JsonObject().put("files_id", oid(file))).mapEmpty());
  }

  /**
   * Removes up to {@code max} media that no post uses and that were uploaded before {@code createdBefore} (epoch
   * ms), with their bytes; uploads that never finished are among them. Returns how many were removed.
   */
  Future<Integer> sweep(long createdBefore, int max) {
    JsonObject query = new JsonObject().put("posts", new JsonObject().put("$size", 0)).put(ATTACHED, none())
        .put("created", new JsonObject().put("$lt", createdBefore));
    return mongo.findWithOptions(ITEMS, query, new FindOptions().setLimit(max)
            .setFields(new JsonObject().put("_id", 1).put("file", 1).put(MediaPipeline.VARIANTS, 1)))
        .compose(docs -> {
          Future<Integer> chain = Future.succeededFuture(0);
          for (JsonObject doc : docs) {
            chain = chain.compose(n -> removeIfUnused(doc)
                .recover(e -> {
                  LOG.warn("could not remove unused media {}: {}", doc.getLong("_id"), e.toString());
                  return Future.succeededFuture(false);
                })
                .map(removed -> removed ? n + 1 : n));
          }
          return chain;
        });
  }

  /**
   * Removes every media {@code owner} uploaded, with its bytes, whatever uses it (the owner's account is erased), in
   * batches of 100; returns how many records went. The bytes go before the record, so a run that stops half-way
   * leaves the record for the next run to find.
   */
  public Future<Long> eraseOwner(long owner) {
    return mongo.findWithOptions(ITEMS, new JsonObject().put("owner", owner), new FindOptions().setLimit(100)
            .setFields(new JsonObject().put("_id", 1).put("file", 1).put(MediaPipeline.VARIANTS, 1)))
        .compose(docs -> {
          if (docs.isEmpty()) {
            return Future.succeededFuture(0L);
          }
          List<Future<Void>> bytes = docs.stream().map(this::deleteAllBytes).toList();
          JsonArray ids = new JsonArray(docs.stream().map(d -> d.getLong("_id")).toList());
          return Future.all(bytes)
              .compose(v -> mongo.removeDocuments(ITEMS, new JsonObject().put("_id", new JsonObject().put("$in", ids))))
              .compose(v -> eraseOwner(owner))
              .map(more -> more + docs.size());
        });
  }

  // ---------------------------------------------------------------- uploads

  /** Starts an upload: records it (so that a crash leaves something the sweep finds) and returns the record. */
  /** How many of the owner's uploads (finished or not) no post uses, counting at most {@code max}. */
  Future<Integer> unattached(long owner, int max) {
    JsonObject query = new JsonObject().put("owner", owner).put("posts", new JsonObject().put("$size", 0))
        .put(ATTACHED, none());
    return mongo.findWithOptions(ITEMS, query, new FindOptions().setLimit(max)
        .setFields(new JsonObject().put("_id", 1))).map(List::size);
  }

  Future<JsonObject> begin(long owner, MediaSniffer.Sniffed type) {
    JsonObject record = new JsonObject()
        .put("_id", ids.next())
        .put("owner", owner)
        .put("kind", type.kind())
        .put("content_type", type.contentType())
        .put("size", 0L)
        .put("file", new ObjectId().toHexString())
        .put("chunk_size", CHUNK_SIZE)
        .put("state", UPLOADING)
        .put("created", System.currentTimeMillis())
        .put("posts", new JsonArray());
    return mongo.insert(ITEMS, record).map(x -> record);
  }

  /** Stores chunk {@code n} of an upload. */
  Future<Void> writeChunk(JsonObject record, int n, Buffer data) {
    JsonObject chunk = new JsonObject()
        .put("_id", oid(new ObjectId().toHexString()))
        .put("files_id", oid(record.getString("file")))
        .put("n", n)
        .put("data", new JsonObject().put("$binary", data.getBytes()));
    return mongo.insert(CHUNKS, chunk).mapEmpty();
  }

  /** Completes an upload of {@code size} bytes; returns its descriptor. */
  Future<JsonObject> finish(JsonObject record, long size) {
    JsonObject file = new JsonObject()
        .put("_id", oid(record.getString("file")))
        .put("length", size)
        .put("chunkSize", record.getInteger("chunk_size"))
        .put("uploadDate", new JsonObject().put("$date", Instant.now().toString()))
        .put("filename", Long.toString(record.getLong("_id")))
        .put("metadata", new JsonObject().put("owner", record.getLong("owner"))
            .put("kind", record.getString("kind")).put("content_type", record.getString("content_type")));
    return mongo.insert(FILES, file)
        .compose(x -> mongo.updateCollection(ITEMS, new JsonObject().put("_id", record.getLong("_id")),
            new JsonObject().put("$set", new JsonObject().put("state", READY).put("size", size)
                .put(MediaPipeline.STATUS, MediaPipeline.PROCESSING)
                .put(MediaPipeline.SINCE, System.currentTimeMillis()))))
        .map(x -> descriptor(record.copy().put("size", size)));
  }

  /**
   * Stores {@code bytes} as a new GridFS file of {@code owner} (a pipeline output: a re-encoded original, a variant);
   * returns the file id.
   */
  Future<String> storeBytes(long owner, long mediaId, String contentType, byte[] bytes) {
    JsonObject record = new JsonObject().put("_id", mediaId).put("owner", owner).put("kind", "variant")
        .put("content_type", contentType).put("file", new ObjectId().toHexString()).put("chunk_size", CHUNK_SIZE);
    Future<Void> chain = Future.succeededFuture();
    for (int n = 0; n * CHUNK_SIZE < bytes.length; n++) {
      int from = n * CHUNK_SIZE;
      Buffer chunk = Buffer.buffer(bytes).getBuffer(from, Math.min(bytes.length, from + CHUNK_SIZE));
      int index = n;
      chain = chain.compose(v -> writeChunk(record, index, chunk));
    }
    JsonObject file = new JsonObject()
        .put("_id", oid(record.getString("file")))
        .put("length", (long) bytes.length)
        .put("chunkSize", CHUNK_SIZE)
        .put("uploadDate", new JsonObject().put("$date", Instant.now().toString()))
        .put("filename", mediaId + "-" + bytes.length)
        .put("metadata", new JsonObject().put("owner", owner).put("content_type", contentType));
    return chain.compose(v -> mongo.insert(FILES, file)).map(x -> record.getString("file"));
  }

  /** Sets the pipeline's outcome on a media record; the record as it is afterwards, or null when it is gone. */
  Future<JsonObject> settle(long mediaId, JsonObject set) {
    return mongo.findOneAndUpdateWithOptions(ITEMS, new JsonObject().put("_id", mediaId),
        new JsonObject().put("$set", set), new FindOptions(), new UpdateOptions().setReturningNewDocument(true));
  }

  /**
   * Claims one media left in processing since before {@code cutoff} (its node died, or its work was lost): moves its
   * {@code since} to now, so that only one node takes it up again; null when there is none.
   */
  Future<JsonObject> claimStale(long cutoff) {
    JsonObject query = new JsonObject().put("state", READY).put(MediaPipeline.STATUS, MediaPipeline.PROCESSING)
        .put(MediaPipeline.SINCE, new JsonObject().put("$lt", cutoff));
    return mongo.findOneAndUpdateWithOptions(ITEMS, query, new JsonObject().put("$set",
            new JsonObject().put(MediaPipeline.SINCE, System.currentTimeMillis())), new FindOptions(),
        new UpdateOptions().setReturningNewDocument(true));
  }

  /** Throws away an upload that did not complete. */
  Future<Void> discard(JsonObject record) {
    return mongo.removeDocument(ITEMS, new JsonObject().put("_id", record.getLong("_id")))
        .compose(x -> mongo.removeDocuments(CHUNKS, new JsonObject().put("files_id", oid(record.getString("file")))))
        .compose(x -> mongo.removeDocument(FILES, new JsonObject().put("_id", oid(record.getString("file")))))
        .mapEmpty();
  }

  // ---------------------------------------------------------------- reads

  /** The current views ({@link MediaPipeline#view}) of these completed uploads, by id; missing ones are absent. */
  public Future<Map<Long, JsonObject>> views(List<Long> mediaIds) {
    JsonObject query = new JsonObject().put("_id", new JsonObject().put("$in", new JsonArray(List.copyOf(mediaIds))))
        .put("state", READY);
    return mongo.find(ITEMS, query).map(docs -> {
      Map<Long, JsonObject> out = new HashMap<>();
      docs.forEach(d -> out.put(d.getLong("_id"), MediaPipeline.view(d)));
      return out;
    });
  }

  /** The record of a completed upload, or null. */
  Future<JsonObject> find(long mediaId) {
    return mongo.findOne(ITEMS, new JsonObject().put("_id", mediaId).put("state", READY), null);
  }

  /** Chunk {@code n} of a media's bytes (fails when it is gone). */
  Future<Buffer> chunk(JsonObject record, int n) {
    JsonObject query = new JsonObject().put("files_id", oid(record.getString("file"))).put("n", n);
    return mongo.findOne(CHUNKS, query, new JsonObject().put("data", 1)).compose(doc -> doc == null
        ? Future.failedFuture(new IllegalStateException("chunk " + n + " of media " + record.getLong("_id")
            + " is missing (deleted while being read?)"))
        : Future.succeededFuture(Buffer.buffer(doc.getJsonObject("data").getBinary("$binary"))));
  }

  /** The public description of a media. */
  static JsonObject descriptor(JsonObject record) {
    return new JsonObject()
        .put("id", record.getLong("_id"))
        .put("kind", record.getString("kind"))
        .put("content_type", record.getString("content_type"))
        .put("size", record.getLong("size"));
  }

  private static JsonObject oid(String hex) {
    return new JsonObject().put("$oid", hex);
  }
}
