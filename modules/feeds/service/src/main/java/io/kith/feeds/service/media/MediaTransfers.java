package io.kith.feeds.service.media;

import io.kith.feeds.api.FeedsErrors;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.limit.RateLimiter;
import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The service side of {@link MediaClient}'s protocol: uploads checked and stored as their bytes arrive, downloads
 * authorised once and then sent piece by piece. Every rule about media lives here and in {@link MediaStore}.
 */
final class MediaTransfers {

  private static final Logger LOG = LoggerFactory.getLogger(MediaTransfers.class);
  /** Limits, from the {@code feeds.media} configuration. */
  record Limits(long imageMaxBytes, long videoMaxBytes, int uploadsPerWindow, long uploadWindowMillis,
                long stepTimeoutMillis, int maxUnattached) {

    long maxFor(String kind) {
      return MediaSniffer.VIDEO.equals(kind) ? videoMaxBytes : imageMaxBytes;
    }
  }

  private final MediaStore store;
  private final MediaUses uses;
  private final RateLimiter limiter;
  private final Limits limits;
  private final MediaPipeline pipeline;

  MediaTransfers(MediaStore store, MediaUses uses, RateLimiter limiter, Limits limits, MediaPipeline pipeline) {
    this.store = store;
    this.pipeline = pipeline;
    this.uses = uses;
    this.limiter = limiter;
    this.limits = limits;
  }

  private DeliveryOptions step() {
    return new DeliveryOptions().setSendTimeout(limits.stepTimeoutMillis());
  }

  private static void refuse(Message<?> message, Throwable failure) {
    if (failure instanceof ServiceException) {
      message.reply(failure);
    } else if (failure instanceof ReplyException) {
      // a service this one asked (feeds visibility) did not answer
      message.reply(Failures.of(KithErrors.UNAVAILABLE, "the service did not answer in time; retry later"));
    } else {
      LOG.error("media transfer failed", failure);
      message.reply(Failures.of(KithErrors.INTERNAL, "an unexpected error occurred; it has been logged"));
    }
  }

  // ---------------------------------------------------------------- uploads

  /** Handles the opening message of an upload. */
  void onUpload(Message<Object> open) {
    long actor = longHeader(open, MediaClient.ACTOR, 0);
    String declared = open.headers().get(MediaClient.CONTENT_TYPE);
    long declaredLength = longHeader(open, MediaClient.CONTENT_LENGTH, -1);
    if (actor <= 0) {
      refuse(open, Failures.of(KithErrors.UNAUTHENTICATED, "uploads need an authenticated user"));
      return;
    }
    String declaredKind = declaredKind(declared);
    if (declaredKind == null) {
      refuse(open, Failures.of(FeedsErrors.MEDIA_TYPE, "send an image (JPEG, PNG, GIF, WebP) or a video (MP4, "
          + "QuickTime, WebM) with Content-Type image/..., video/... or application/octet-stream"));
      return;
    }
    long declaredMax = declaredKind.isEmpty() ? Math.max(limits.imageMaxBytes(), limits.videoMaxBytes())
        : limits.maxFor(declaredKind);
    if (declaredLength > declaredMax) {
      refuse(open, tooLarge(declaredKind.isEmpty() ? MediaSniffer.VIDEO : declaredKind));
      return;
    }
    if (pipeline.full()) {
      refuse(open, MediaPipeline.busy());
      return;
    }
    limiter.hit("rl:feeds:media-upload:" + actor, limits.uploadWindowMillis()).onComplete(ar -> {
      if (ar.failed()) {
        refuse(open, Failures.of(KithErrors.UNAVAILABLE, "cannot check the upload rate right now; retry"));
      } else if (ar.result().count() > limits.uploadsPerWindow()) {
        refuse(open, Failures.withExtra(KithErrors.RATE_LIMITED, "at most " + limits.uploadsPerWindow()
                + " uploads per " + limits.uploadWindowMillis() / 1000 + " s; retry later",
            new JsonObject().put("retry_after", ar.result().retryAfterSeconds())));
      } else {
        store.unattached(actor, limits.maxUnattached()).onComplete(count -> {
          if (count.failed()) {
            refuse(open, Failures.of(KithErrors.UNAVAILABLE, "cannot check your stored media right now; retry"));
          } else if (count.result() >= limits.maxUnattached()) {
            refuse(open, Failures.withExtra(FeedsErrors.TOO_MANY_UNATTACHED, "you have " + limits.maxUnattached()
                + " uploads that no post uses: attach them to posts, or wait until they expire",
                new JsonObject().put("max_unattached", limits.maxUnattached())));
          } else {
            Upload upload = new Upload(actor, declaredKind, declaredLength);
            upload.await(open.replyAndRequest(new JsonObject().put("ack", 0), step()));
          }
        });
      }
    });
  }

  /** "image", "video", "" (application/octet-stream: the bytes decide), or null when not acceptable. */
  static String declaredKind(String contentType) {
    if (contentType == null) {
      return null;
    }
    String type = contentType.split(";", 2)[0].trim().toLowerCase(Locale.ROOT);
    if (type.startsWith("image/") && type.length() > 6) {
      return MediaSniffer.IMAGE;
    }
    if (type.startsWith("video/") && type.length() > 6) {
      return MediaSniffer.VIDEO;
    }
    return type.equals("application/octet-stream") ? "" : null;
  }

  private ServiceException tooLarge(String kind) {
    long max = limits.maxFor(kind);
    return Failures.withExtra(FeedsErrors.MEDIA_TOO_LARGE, "a" + (kind.equals(MediaSniffer.IMAGE) ? "n " : " ")
        + kind + " may have at most " + max + " bytes", new JsonObject().put("max_bytes", max));
  }

  private static long longHeader(Message<?> message, String name, long fallback) {
    String value = message.headers().get(name);
    if (value == null) {
      return fallback;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** One upload in progress: what arrived so far, and the pieces not yet stored. */
  private final class Upload {
    private final long actor;
    private final String declaredKind;
    private final long declaredLength;
    private Buffer pending = Buffer.buffer();
    private JsonObject record;
    private long max;
    private long size;
    private int nextChunk;

    Upload(long actor, String declaredKind, long declaredLength) {
      this.actor = actor;
      this.declaredKind = declaredKind;
      this.declaredLength = declaredLength;
    }

    void await(Future<Message<Object>> next) {
      next.onComplete(ar -> {
        if (ar.failed()) {
          // the client went silent (timeout) or away: nothing to answer, throw away what was stored
          abandon();
          return;
        }
        Message<Object> piece = ar.result();
        if ("true".equals(piece.headers().get(MediaClient.ABORT))) {
          abandon();
          return;
        }
        boolean last = "true".equals(piece.headers().get(MediaClient.LAST));
        Buffer data = piece.body() instanceof Buffer ? (Buffer) piece.body() : Buffer.buffer();
        if (data.length() > MediaClient.CHUNK_BYTES) {
          fail(piece, Failures.of(KithErrors.VALIDATION_FAILED, "a piece of an upload may have at most "
              + MediaClient.CHUNK_BYTES + " bytes"));
          return;
        }
        accept(data, last).onComplete(stored -> {
          if (stored.failed()) {
            fail(piece, stored.cause());
          } else if (last) {
            piece.reply(stored.result());
          } else {
            await(piece.replyAndRequest(new JsonObject().put("ack", size), step()));
          }
        });
      });
    }

    /** Takes a piece; completes with the descriptor after the last one. */
    private Future<JsonObject> accept(Buffer data, boolean last) {
      size += data.length();
      pending.appendBuffer(data);
      Future<Void> ready = Future.succeededFuture();
      if (record == null) {
        if (pending.length() < MediaSniffer.HEAD_BYTES && !last) {
          return Future.succeededFuture();
        }
        MediaSniffer.Sniffed type = MediaSniffer.sniff(pending);
        if (type == null) {
          return Failures.fail(FeedsErrors.MEDIA_TYPE, "the content is not an accepted image (JPEG, PNG, GIF, "
              + "WebP) or video (MP4, QuickTime, WebM)");
        }
        if (!declaredKind.isEmpty() && !declaredKind.equals(type.kind())) {
          return Failures.fail(FeedsErrors.MEDIA_TYPE, "the content is " + type.contentType()
              + ", not the declared " + declaredKind);
        }
        max = limits.maxFor(type.kind());
        if (declaredLength > max || size > max) {
          return Future.failedFuture(tooLarge(type.kind()));
        }
        ready = store.begin(actor, type).map(r -> {
          record = r;
          return null;
        });
      } else if (size > max) {
        return Future.failedFuture(tooLarge(record.getString("kind")));
      }
      return ready.compose(v -> flush(last)).compose(v -> last ? store.finish(record, size).compose(d -> processed())
          : Future.succeededFuture());
    }

    /**
     * Hands the stored upload to the pipeline: an image is answered once processed (its id is not known to anyone
     * before its metadata is gone, and it takes well under a second), a video at once in state processing.
     */
    private Future<JsonObject> processed() {
      JsonObject stored = record.copy().put("size", size).put(MediaPipeline.STATUS, MediaPipeline.PROCESSING);
      Future<JsonObject> done = pipeline.submit(stored);
      if (done.failed() || !MediaSniffer.VIDEO.equals(record.getString("kind"))) {
        return done.map(MediaPipeline::view);
      }
      return Future.succeededFuture(MediaPipeline.view(stored));
    }

    /** Stores every full chunk pending, and the rest after the last piece. */
    private Future<Void> flush(boolean last) {
      List<Buffer> chunks = new ArrayList<>();
      while (pending.length() >= MediaStore.CHUNK_SIZE) {
        chunks.add(pending.getBuffer(0, MediaStore.CHUNK_SIZE));
        pending = pending.getBuffer(MediaStore.CHUNK_SIZE, pending.length());
      }
      if (last && pending.length() > 0) {
        chunks.add(pending);
        pending = Buffer.buffer();
      }
      Future<Void> chain = Future.succeededFuture();
      for (Buffer chunk : chunks) {
        int n = nextChunk++;
        chain = chain.compose(v -> store.writeChunk(record, n, chunk));
      }
      return chain;
    }

    /** Refuses the upload once what was stored is gone, so a refused upload leaves nothing behind. */
    private void fail(Message<Object> piece, Throwable cause) {
      abandon().onComplete(x -> refuse(piece, cause));
    }

    private Future<Void> abandon() {
      pending = Buffer.buffer();
      if (record == null) {
        return Future.succeededFuture();
      }
      JsonObject r = record;
      return store.discard(r).<Void>mapEmpty().recover(e -> {
        LOG.warn("could not discard the unfinished upload {} (the sweep will): {}", r.getLong("_id"), e.toString());
        return Future.succeededFuture();
      });
    }
  }

  // ---------------------------------------------------------------- downloads

  /** Handles the opening message of a download. */
  void onRead(Message<Object> open) {
    long viewer = Math.max(0, longHeader(open, MediaClient.VIEWER, 0));
    long mediaId = longHeader(open, MediaClient.MEDIA, 0);
    String range = open.headers().get(MediaClient.RANGE);
    String variant = open.headers().get(MediaClient.VARIANT);
    uses.visibleRecord(viewer, mediaId).onComplete(ar -> {
      if (ar.failed()) {
        refuse(open, ar.cause());
        return;
      }
      JsonObject record = variant == null ? ar.result() : MediaPipeline.variantRecord(ar.result(), variant);
      if (record == null) {
        refuse(open, Failures.of(FeedsErrors.MEDIA_NOT_FOUND, "the media has no variant " + variant));
        return;
      }
      ByteRange r = ByteRange.resolve(range, record.getLong("size"));
      if (r == null) {
        refuse(open, Failures.withExtra(FeedsErrors.RANGE_NOT_SATISFIABLE, "the media has "
            + record.getLong("size") + " bytes", new JsonObject().put("size", record.getLong("size"))));
        return;
      }
      JsonObject info = MediaStore.descriptor(record)
          .put("start", r.start()).put("end", r.end()).put("length", r.length()).put("partial", r.partial())
          .put("etag", "\"m" + record.getLong("_id") + (variant == null ? "" : "-" + variant) + "\"");
      send(open.replyAndRequest(info, step()), record, r.start(), r.end());
    });
  }

  /** Answers an info request ({@link MediaClient#INFO_ADDRESS}) with the media's view, for whoever may read it. */
  void onInfo(Message<Object> ask) {
    long viewer = Math.max(0, longHeader(ask, MediaClient.VIEWER, 0));
    uses.visibleRecord(viewer, longHeader(ask, MediaClient.MEDIA, 0)).onComplete(ar -> {
      if (ar.failed()) {
        refuse(ask, ar.cause());
      } else {
        ask.reply(MediaPipeline.view(ar.result()));
      }
    });
  }

  /** Answers each "next" with the following piece of [from, end], one GridFS chunk at most. */
  private void send(Future<Message<Object>> next, JsonObject record, long from, long end) {
    next.onComplete(ar -> {
      if (ar.failed() || !"next".equals(ar.result().headers().get(MediaClient.ACTION))) {
        return; // cancelled, or the reader went away: nothing is held
      }
      Message<Object> ask = ar.result();
      long chunkSize = record.getInteger("chunk_size");
      int n = (int) (from / chunkSize);
      store.chunk(record, n).onComplete(read -> {
        if (read.failed()) {
          refuse(ask, read.cause());
          return;
        }
        Buffer chunk = read.result();
        long chunkStart = (long) n * chunkSize;
        int sliceFrom = (int) (from - chunkStart);
        int sliceTo = (int) Math.min(chunk.length(), end + 1 - chunkStart);
        if (sliceFrom >= sliceTo) {
          refuse(ask, new IllegalStateException("chunk " + n + " of media " + record.getLong("_id")
              + " is shorter than its size says"));
          return;
        }
        Buffer piece = chunk.getBuffer(sliceFrom, sliceTo);
        long after = chunkStart + sliceTo;
        if (after > end) {
          ask.reply(piece, new DeliveryOptions().addHeader(MediaClient.LAST, "true"));
        } else {
          send(ask.replyAndRequest(piece, step()), record, after, end);
        }
      });
    });
  }
}
