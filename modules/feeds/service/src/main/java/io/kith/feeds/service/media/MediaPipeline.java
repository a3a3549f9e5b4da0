package io.kith.feeds.service.media;

import io.kith.feeds.api.MediaClient;
import io.kith.feeds.api.events.MediaProcessed;
import io.kith.platform.bus.Addresses;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.events.Event;
import io.kith.platform.events.EventPublisher;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.WorkerExecutor;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.file.OpenOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ws.schild.jave.process.ProcessLocator;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Processes every finished upload off the event loop, on a named worker pool of a configured size with a bounded
 * queue: images are re-encoded without metadata, oriented and resized ({@link ImageVariants}), videos probed and given
 * a cover frame ({@link VideoProbe}). The media record goes from {@code processing} to {@code ready} or {@code failed}
 * (with a reason), and the uploader is told on their user address ({@code media.ready} / {@code media.failed}).
 *
 * <p>Record members it writes: {@value #STATUS}, {@value #REASON}, {@value #DETAIL}, {@code width}, {@code height},
 * {@code duration_ms}, {@code codec}, {@code format} and {@value #VARIANTS} ({@code [{name, width, height,
 * content_type, size, file}]}); a record without {@value #STATUS} predates the pipeline and counts as ready.
 */
final class MediaPipeline {

  private static final Logger LOG = LoggerFactory.getLogger(MediaPipeline.class);
  static final String STATUS = "status";
  static final String REASON = "reason";
  static final String DETAIL = "detail";
  static final String VARIANTS = "variants";
  /** Member: when processing started (or was last taken up again), epoch ms. */
  static final String SINCE = "since";
  static final String PROCESSING = "processing";
  static final String READY = "ready";
  static final String FAILED = "failed";

  /**
   * Whether a record failed processing (undecodable, over a limit, an internal error): it may not be attached to
   * anything, since no client could render it and its bytes were never cleaned. A video still {@code processing} may
   * be attached, so a client can publish at once; an image is answered only once processed, so it is never in that
   * state when attached.
   */
  static boolean failed(JsonObject record) {
    return FAILED.equals(record.getString(STATUS));
  }

  /** Query condition on {@link #STATUS} matching records that did not fail (absent: older than the pipeline). */
  static JsonObject notFailed() {
    return new JsonObject().put("$ne", FAILED);
  }

  /** The pipeline's settings (section {@code feeds.media}); {@code ffmpeg} finds the executable the video steps run. */
  record Settings(int workers, int maxQueued, long maxPixels, long maxVideoSeconds, List<Integer> sizes,
                  VideoTranscode.Settings transcode, ProcessLocator ffmpeg) {
  }

  private final Vertx vertx;
  private final MediaStore store;
  private final Settings settings;
  private final WorkerExecutor workers;
  private final ImageVariants images;
  private final VideoProbe videos;
  /** Media accepted and not yet settled, on this node. */
  private final AtomicInteger inFlight = new AtomicInteger();

  private final MediaVerticle.PostsUsing postsUsing;
  private final EventPublisher events;

  MediaPipeline(Vertx vertx, MediaStore store, Settings settings, MediaVerticle.PostsUsing postsUsing,
                EventPublisher events) {
    this.vertx = vertx;
    this.store = store;
    this.settings = settings;
    this.postsUsing = postsUsing;
    this.events = events;
    // one ffmpeg or one decode per worker: the pool size bounds the CPU and memory media takes on a node
    this.workers = vertx.createSharedWorkerExecutor("kith-media", settings.workers());
    this.images = new ImageVariants(settings.maxPixels(), settings.sizes());
    this.videos = new VideoProbe(settings.maxVideoSeconds(), settings.ffmpeg(),
        new VideoTranscode(settings.transcode(), settings.ffmpeg()));
  }

  /** Whether a new upload would find no room in the queue (checked before its bytes are taken). */
  boolean full() {
    return inFlight.get() >= settings.maxQueued();
  }

  /** The refusal of an upload while the queue is full. */
  static Throwable busy() {
    return Failures.withExtra(KithErrors.UNAVAILABLE, "media processing is busy; retry in a minute",
        new JsonObject().put("retry_after", 60));
  }

  /**
   * Takes a stored upload; completes with its record once processed (ready or failed), or fails with
   * {@code unavailable} when the queue is full (nothing was processed; the caller discards the upload).
   */
  Future<JsonObject> submit(JsonObject record) {
    if (inFlight.incrementAndGet() > settings.maxQueued()) {
      inFlight.decrementAndGet();
      return Future.failedFuture(busy());
    }
    return process(record).onComplete(x -> inFlight.decrementAndGet());
  }

  /**
   * Takes up again, one by one, media left in processing since before {@code cutoff} (epoch ms), while the queue has
   * room, at most {@code max}; completes with how many were taken up (their processing goes on in the background).
   */
  Future<Integer> resume(long cutoff, int max) {
    if (max <= 0 || full()) {
      return Future.succeededFuture(0);
    }
    return store.claimStale(cutoff).compose(record -> {
      if (record == null) {
        return Future.succeededFuture(0);
      }
      LOG.info("media {} was left in processing; processing it again", record.getLong("_id"));
      submit(record);
      return resume(cutoff, max - 1).map(n -> n + 1);
    });
  }

  /** Stops the workers. */
  void close() {
    workers.close();
  }

  private Future<JsonObject> process(JsonObject record) {
    long id = record.getLong("_id");
    return copyToTempFile(record)
        .compose(file -> workers.executeBlocking(() -> run(record, file), false)
            .eventually(() -> vertx.fileSystem().delete(file.getAbsolutePath())))
        .compose(outcome -> outcome.store(this, record))
        .recover(e -> {
          MediaRefused refused = e instanceof MediaRefused r ? r : new MediaRefused("internal",
              "the media could not be processed");
          if (!(e instanceof MediaRefused)) {
            LOG.warn("media {} could not be processed: {}", id, e.toString());
          }
          return store.settle(id, new JsonObject().put(STATUS, FAILED).put(REASON, refused.code)
              .put(DETAIL, refused.getMessage()));
        })
        .compose(settled -> {
          if (settled != null) {
            push(settled);
            refreshPosts(settled);
            announce(settled);
          }
          return Future.succeededFuture(settled == null ? record : settled);
        });
  }

  /** The posts already using a media that settled get its new view (a failure leaves theirs as it was, logged). */
  private void refreshPosts(JsonObject settled) {
    List<Long> posts = new ArrayList<>();
    settled.getJsonArray("posts", new JsonArray()).forEach(p -> posts.add(((Number) p).longValue()));
    if (!posts.isEmpty()) {
      postsUsing.settled(settled.getLong("_id"), posts, view(settled)).onFailure(e -> LOG.warn(
          "posts {} keep an older view of media {}: {}", posts, settled.getLong("_id"), e.toString()));
    }
  }

  /**
   * Appends {@code MediaProcessed} when objects of other domains carry the media (a chat video sent while processed),
   * so that they take its final view: durable, unlike the posts' update in this process, since those domains may run
   * on other nodes. An attach after the settle gets the final view in its answer, so nothing else needs the event.
   */
  private void announce(JsonObject settled) {
    List<String> attached = Event.strings(settled.getJsonArray(MediaStore.ATTACHED));
    if (!attached.isEmpty()) {
      events.publish(new MediaProcessed(settled.getLong("_id"), settled.getLong("owner"),
          settled.getString(STATUS), attached));
    }
  }

  /** The worker part: decode and encode, no store access. */
  private Outcome run(JsonObject record, File file) throws IOException {
    if (MediaSniffer.VIDEO.equals(record.getString("kind"))) {
      return new Outcome(null, videos.process(file, true));
    }
    return new Outcome(images.process(Files.readAllBytes(file.toPath())), null);
  }

  /** What the worker made, stored and recorded back on the event loop. */
  private record Outcome(ImageVariants.Result image, VideoProbe.Probed video) {

    Future<JsonObject> store(MediaPipeline pipeline, JsonObject record) {
      return image != null ? pipeline.storeImage(record, image) : pipeline.storeVideo(record, video);
    }
  }

  private Future<JsonObject> storeImage(JsonObject record, ImageVariants.Result result) {
    long id = record.getLong("_id");
    long owner = record.getLong("owner");
    ImageVariants.Encoded original = result.original();
    return store.storeBytes(owner, id, original.contentType(), original.bytes())
        .compose(file -> storeVariants(record, result.variants()).compose(variants -> store.settle(id,
            new JsonObject().put(STATUS, READY).put("file", file).put("size", (long) original.bytes().length)
                .put("content_type", original.contentType()).put("width", original.width())
                .put("height", original.height()).put(VARIANTS, variants))))
        // the upload as received (with its metadata) goes once the clean copy is in place
        .compose(settled -> store.deleteBytes(record.getString("file")).map(settled));
  }

  private Future<JsonArray> storeVariants(JsonObject record, List<ImageVariants.Encoded> variants) {
    List<Future<JsonObject>> stored = new ArrayList<>();
    for (ImageVariants.Encoded v : variants) {
      stored.add(variant(record, "w" + Math.max(v.width(), v.height()), v));
    }
    return Future.all(stored).map(all -> new JsonArray(all.list()));
  }

  private Future<JsonObject> variant(JsonObject record, String name, ImageVariants.Encoded v) {
    return store.storeBytes(record.getLong("owner"), record.getLong("_id"), v.contentType(), v.bytes())
        .map(file -> new JsonObject().put("name", name).put("width", v.width()).put("height", v.height())
            .put("content_type", v.contentType()).put("size", (long) v.bytes().length).put("file", file));
  }

  private Future<JsonObject> storeVideo(JsonObject record, VideoProbe.Probed probed) {
    List<Future<JsonObject>> stored = new ArrayList<>();
    if (probed.cover() != null) {
      stored.add(variant(record, "cover", new ImageVariants.Encoded(probed.width(), probed.height(), "image/jpeg",
          probed.cover())));
    }
    if (probed.transcoded() != null) {
      stored.add(variant(record, VideoTranscode.VARIANT, probed.transcoded()));
    }
    Future<JsonArray> variants = Future.all(stored).map(all -> new JsonArray(all.list()));
    return variants.compose(list -> store.settle(record.getLong("_id"), new JsonObject().put(STATUS, READY)
        .put("width", probed.width()).put("height", probed.height()).put("duration_ms", probed.durationMillis())
        .put("codec", probed.codec()).put("format", probed.format()).put(VARIANTS, list)));
  }

  /** Copies the stored bytes to a temporary file, chunk by chunk, for the decoders (ffmpeg reads files). */
  private Future<File> copyToTempFile(JsonObject record) {
    return vertx.fileSystem().createTempFile("kith-media-", ".bin").compose(path -> vertx.fileSystem()
        .open(path, new OpenOptions().setWrite(true).setTruncateExisting(true))
        .compose(out -> copyChunks(record, out, 0, (int) chunks(record)).eventually(out::close))
        .map(v -> new File(path))
        // a copy cut short (bytes deleted meanwhile, a store error) leaves no temporary file behind
        .recover(e -> vertx.fileSystem().delete(path).transform(x -> Future.failedFuture(e))));
  }

  private static long chunks(JsonObject record) {
    long size = record.getLong("size", 0L);
    int chunk = record.getInteger("chunk_size");
    return (size + chunk - 1) / chunk;
  }

  private Future<Void> copyChunks(JsonObject record, io.vertx.core.file.AsyncFile out, int n, int count) {
    if (n >= count) {
      return Future.succeededFuture();
    }
    return store.chunk(record, n).compose(out::write).compose(v -> copyChunks(record, out, n + 1, count));
  }

  /** Tells the uploader's connections that the media is ready or failed. */
  private void push(JsonObject record) {
    boolean ready = READY.equals(record.getString(STATUS));
    vertx.eventBus().publish(Addresses.user(record.getLong("owner")), new JsonObject()
        .put("kind", ready ? MediaClient.PUSH_MEDIA_READY : MediaClient.PUSH_MEDIA_FAILED).put("media", view(record)));
  }

  /**
   * The client view of a media record: {@code {id, kind, content_type, size, state, reason?, detail?, width?,
   * height?, duration_ms?, codec?, variants: [{name, width, height, url, content_type, size}]}}.
   */
  static JsonObject view(JsonObject record) {
    JsonObject view = MediaStore.descriptor(record).put("state", record.getString(STATUS, READY));
    for (String key : List.of(REASON, DETAIL, "width", "height", "duration_ms", "codec")) {
      if (record.getValue(key) != null) {
        view.put(key, record.getValue(key));
      }
    }
    JsonArray variants = new JsonArray();
    for (Object v : record.getJsonArray(VARIANTS, new JsonArray())) {
      JsonObject variant = ((JsonObject) v).copy();
      variant.remove("file");
      variants.add(variant.put("url", "/api/v1/media/" + record.getLong("_id") + "?variant="
          + variant.getString("name")));
    }
    return view.put(VARIANTS, variants);
  }

  /** The record to read for {@code variant} of a media (its bytes and type), or null when it has no such variant. */
  static JsonObject variantRecord(JsonObject record, String variant) {
    for (Object v : record.getJsonArray(VARIANTS, new JsonArray())) {
      JsonObject entry = (JsonObject) v;
      if (variant.equals(entry.getString("name"))) {
        return record.copy().put("file", entry.getString("file")).put("size", entry.getLong("size"))
            .put("content_type", entry.getString("content_type")).put("chunk_size", MediaStore.CHUNK_SIZE)
            .put("variant", variant);
      }
    }
    return null;
  }
}
