package io.kith.feeds.service.media;

import io.kith.feeds.api.FeedsEvents;
import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.media.MediaAttachments;
import io.kith.platform.Platform;
import io.kith.platform.config.Bounds;
import io.kith.platform.events.Exports;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import ws.schild.jave.process.ProcessLocator;
import ws.schild.jave.process.ffmpeg.DefaultFFMPEGLocator;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Wires feeds media: the store, the transfer handlers on {@link MediaClient#UPLOAD_ADDRESS} and
 * {@link MediaClient#READ_ADDRESS}, and a periodic sweep of uploads that no post uses. Completes when both consumers
 * are registered.
 */
public final class MediaVerticle extends VerticleBase {

  private static final Logger LOG = LoggerFactory.getLogger(MediaVerticle.class);
  /** Configuration section of media (under {@code feeds}). */
  static final String SECTION = "media";
  static final String IMAGE_MAX_BYTES = "image-max-bytes";
  static final String VIDEO_MAX_BYTES = "video-max-bytes";
  static final String UPLOADS_PER_WINDOW = "uploads-per-window";
  static final String UPLOAD_WINDOW_SECONDS = "upload-window-seconds";
  static final String UNATTACHED_TTL_SECONDS = "unattached-ttl-seconds";
  static final String SWEEP_INTERVAL_SECONDS = "sweep-interval-seconds";
  static final String MAX_UNATTACHED = "max-unattached";
  static final String TRANSFER_TIMEOUT_SECONDS = "transfer-timeout-seconds";
  static final String WORKERS = "workers";
  static final String MAX_QUEUED = "max-queued";
  static final String MAX_PIXELS = "max-pixels";
  static final String MAX_VIDEO_SECONDS = "max-video-seconds";
  static final String VARIANT_SIZES = "variant-sizes";
  static final String PROCESSING_TIMEOUT_SECONDS = "processing-timeout-seconds";
  static final String TRANSCODE = "transcode";
  static final String TRANSCODE_MAX_SIDE = "transcode-max-side";
  static final String TRANSCODE_VIDEO_BITRATE = "transcode-video-bitrate";
  static final String TRANSCODE_AUDIO_BITRATE = "transcode-audio-bitrate";
  static final String FFMPEG_PATH = "ffmpeg-path";
  /** Most media one sweep pass removes. */
  static final int SWEEP_BATCH = 500;
  /** Most batches one sweep run removes. */
  static final int SWEEP_ROUNDS = 100;

  private final Platform platform;
  private MessageConsumer<Object> uploads;
  private MessageConsumer<Object> reads;
  private MessageConsumer<Object> infos;
  private MediaPipeline pipeline;
  private MessageConsumer<JsonObject> attaches;
  private MessageConsumer<JsonObject> exportPages;
  private MessageConsumer<JsonObject> exportBlobs;
  private long sweepTimer = -1;

  /**
   * Told when a media that posts already use settles (a video attached while it was processed), so that the posts'
   * copies of its view ({@code state}, {@code variants}) follow.
   */
  public interface PostsUsing {
    /** Puts {@code view} in place of the media's copy in {@code postIds}. */
    Future<Void> settled(long mediaId, List<Long> postIds, JsonObject view);
  }

  private final PostsUsing postsUsing;

  /** Creates the verticle on a node's platform, with no posts to keep up to date (the media tests). */
  public MediaVerticle(Platform platform) {
    this(platform, (mediaId, postIds, view) -> Future.succeededFuture());
  }

  /** Creates the verticle on a node's platform; {@code postsUsing} updates the posts that use a media that settled. */
  public MediaVerticle(Platform platform, PostsUsing postsUsing) {
    this.platform = platform;
    this.postsUsing = postsUsing;
  }

  @Override
  public Future<?> start() {
    Bounds config = Bounds.of("feeds." + SECTION,
        platform.config().section("feeds").getJsonObject(SECTION, new JsonObject()));
    MediaTransfers.Limits limits = new MediaTransfers.Limits(
        config.longValue(IMAGE_MAX_BYTES),
        config.longValue(VIDEO_MAX_BYTES),
        config.integer(UPLOADS_PER_WINDOW),
        config.longValue(UPLOAD_WINDOW_SECONDS) * 1000,
        config.longValue(TRANSFER_TIMEOUT_SECONDS) * 1000,
        config.integer(MAX_UNATTACHED));
    long ttl = config.longValue(UNATTACHED_TTL_SECONDS) * 1000;
    long every = config.longValue(SWEEP_INTERVAL_SECONDS) * 1000;
    MediaStore store = new MediaStore(platform.mongo(), platform.ids());
    MediaUses uses = new MediaUses(vertx, store, FeedsInternal.proxy(vertx));
    pipeline = new MediaPipeline(vertx, store, pipelineSettings(config), postsUsing,
        platform.events().publisher(FeedsEvents.DOMAIN));
    MediaTransfers transfers = new MediaTransfers(store, uses, new RateLimiter(platform.redis()), limits, pipeline);
    MediaClient.registerCodec(vertx);
    return store.ensureIndexes().compose(v -> {
      // every node sweeps; removal is conditional on the media being unused, so concurrent sweeps are harmless
      long stale = config.within(PROCESSING_TIMEOUT_SECONDS, 10L, 86_400L) * 1000;
      sweepTimer = vertx.setPeriodic(every, every, id -> {
        sweep(store, System.currentTimeMillis() - ttl, 0, 0);
        pipeline.resume(System.currentTimeMillis() - stale, SWEEP_BATCH)
            .onFailure(e -> LOG.warn("could not take up media left in processing: {}", e.toString()));
      });
      uploads = vertx.eventBus().consumer(MediaClient.UPLOAD_ADDRESS, transfers::onUpload);
      reads = vertx.eventBus().consumer(MediaClient.READ_ADDRESS, transfers::onRead);
      infos = vertx.eventBus().consumer(MediaClient.INFO_ADDRESS, transfers::onInfo);
      attaches = vertx.eventBus().consumer(MediaAttachments.ATTACH_ADDRESS, uses::onAttach);
      MediaExport export = new MediaExport(platform.mongo(), store);
      exportPages = Exports.serve(vertx, MediaExport.DOMAIN, export::page);
      exportBlobs = Exports.serveBlobs(vertx, MediaExport.DOMAIN, export::chunk);
      return Future.all(List.of(uploads.completion(), reads.completion(), attaches.completion(), infos.completion(),
          exportPages.completion(), exportBlobs.completion()));
    });
  }

  private static MediaPipeline.Settings pipelineSettings(Bounds config) {
    java.util.List<Integer> sizes = new java.util.ArrayList<>();
    for (String size : config.text(VARIANT_SIZES).split(",")) {
      int px = size.trim().matches("\\d{1,5}") ? Integer.parseInt(size.trim()) : 0;
      if (px < 16 || px > 8192) {
        throw new IllegalArgumentException("feeds.media." + VARIANT_SIZES + " must list sizes between 16 and 8192 "
            + "pixels, separated by commas: " + config.text(VARIANT_SIZES));
      }
      sizes.add(px);
    }
    return new MediaPipeline.Settings(config.within(WORKERS, 1, 64), config.within(MAX_QUEUED, 1, 10_000),
        config.within(MAX_PIXELS, 1L, 1_000_000_000L), config.within(MAX_VIDEO_SECONDS, 1L, 86_400L), sizes,
        new VideoTranscode.Settings(config.flag(TRANSCODE), config.within(TRANSCODE_MAX_SIDE, 64, 4096),
            config.within(TRANSCODE_VIDEO_BITRATE, 100_000, 50_000_000),
            config.within(TRANSCODE_AUDIO_BITRATE, 32_000, 512_000)), ffmpeg(config.text(FFMPEG_PATH).trim()));
  }

  /**
   * The ffmpeg the video steps run: the one JAVE ships for this platform when {@code ffmpeg-path} is empty, else that
   * executable (a system ffmpeg: another platform, other codecs, security updates on the system's schedule). A path
   * that is no executable file stops the start with the key named, rather than failing every video later.
   */
  private static ProcessLocator ffmpeg(String path) {
    if (path.isEmpty()) {
      return new DefaultFFMPEGLocator();
    }
    if (!Files.isRegularFile(Path.of(path)) || !Files.isExecutable(Path.of(path))) {
      throw new IllegalArgumentException("feeds.media." + FFMPEG_PATH + " must name an executable ffmpeg (or be "
          + "empty for the one Kith ships): " + path);
    }
    return () -> path;
  }

  /** Sweeps batch after batch until a batch comes back short (at most {@link #SWEEP_ROUNDS} batches a run). */
  private void sweep(MediaStore store, long createdBefore, int round, int removed) {
    store.sweep(createdBefore, SWEEP_BATCH).onComplete(ar -> {
      if (ar.failed()) {
        LOG.warn("media sweep failed: {}", ar.cause().toString());
        return;
      }
      int total = removed + ar.result();
      if (ar.result() >= SWEEP_BATCH && round + 1 < SWEEP_ROUNDS) {
        sweep(store, createdBefore, round + 1, total);
      } else if (total > 0) {
        LOG.info("removed {} media that no post used", total);
      }
    });
  }

  @Override
  public Future<?> stop() {
    if (sweepTimer >= 0) {
      vertx.cancelTimer(sweepTimer);
    }
    if (pipeline != null) {
      pipeline.close();
    }
    List<Future<Void>> all = new ArrayList<>();
    for (MessageConsumer<?> consumer : Arrays.asList(infos, uploads, reads, attaches, exportPages, exportBlobs)) {
      if (consumer != null) {
        all.add(consumer.unregister());
      }
    }
    return Future.all(all);
  }
}
