package io.kith.feeds.api;

import io.kith.platform.media.MediaAttachments;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;
import io.vertx.serviceproxy.ServiceException;

/**
 * Moves media bytes between a caller (the gateway) and the feeds media service in bounded pieces, so that neither side
 * holds a whole file and no event-bus message carries more than {@link #CHUNK_BYTES}. Service proxies cannot stream,
 * so this is a small protocol of plain event-bus messages, each piece sent only after the previous one was answered
 * (back-pressure end to end). Every step is a reply to the previous message, so a transfer stays with the node that
 * started it, also in a cluster.
 *
 * <p><b>Upload</b> ({@link #UPLOAD_ADDRESS}): an opening message with an empty body and the headers {@link #ACTOR},
 * {@link #CONTENT_TYPE} (as declared by the client) and {@link #CONTENT_LENGTH} (declared, absent when unknown); the
 * service checks the declared type, length and the actor's upload rate and answers with an acknowledgement, to which
 * the client replies with the first piece of bytes; each acknowledgement is answered with the next piece; the final
 * piece carries {@link #LAST} and is answered with the media's view (see {@link #INFO_ADDRESS}): an image once
 * processed ({@code state} ready or failed), a video in state {@code processing}, its outcome pushed to the uploader
 * later. {@code unavailable} (503) when the node's media processing queue is full. A reply
 * with {@link #ABORT} ends the upload and discards what was stored. Any step may fail with a coded
 * {@link ServiceException}: {@code unsupported_media} (415, judged from the bytes), {@code media_too_large} (413, as
 * soon as the bytes pass the limit of their kind), {@code rate_limited} (429).
 *
 * <p><b>Download</b> ({@link #READ_ADDRESS}): an opening message with {@link #VIEWER} (0 for anonymous),
 * {@link #MEDIA} and optionally {@link #RANGE} (the HTTP {@code Range} header value); the answer is the description
 * {@code {id, kind, content_type, size, start, end, length, partial, etag}} of what will be sent; each reply with
 * {@link #ACTION} {@code next} is answered with the next piece of bytes, the final one marked {@link #LAST}; a reply
 * with {@link #ACTION} {@code cancel} ends the download. It fails with {@code media_not_found} (404) for missing
 * media and for media the viewer may not see, alike, and {@code range_not_satisfiable} (416, extra {@code size}).
 */
public final class MediaClient {

  /** Address of uploads. */
  public static final String UPLOAD_ADDRESS = "kith.feeds.media.upload";
  /** Address of downloads. */
  public static final String READ_ADDRESS = "kith.feeds.media.read";
  /**
   * Address of a media's view (a request with {@link #VIEWER} and {@link #MEDIA}, answered with {@code {id, kind,
   * content_type, size, state, reason?, detail?, width?, height?, duration_ms?, codec?, variants}} or
   * {@code media_not_found}, like a download).
   */
  public static final String INFO_ADDRESS = "kith.feeds.media.info";
  /**
   * Push kind on the uploader's {@code kith.user.<id>} address once processing ended well:
   * {@code {kind, media: <view, state ready>}} (images before their upload is answered, videos after).
   */
  public static final String PUSH_MEDIA_READY = "media.ready";
  /** Push kind on the uploader's address when processing failed: {@code {kind, media: <view with reason, detail>}}. */
  public static final String PUSH_MEDIA_FAILED = "media.failed";
  /** Largest piece of bytes in one message. */
  public static final int CHUNK_BYTES = 256 * 1024;
  /** Header: the acting (uploading) user id, from a verified token. */
  public static final String ACTOR = "actor";
  /** Header: the reading user id, 0 for anonymous. */
  public static final String VIEWER = "viewer";
  /** Header: the media id to read. */
  public static final String MEDIA = "media";
  /** Header: the content type the client declared for an upload. */
  public static final String CONTENT_TYPE = "content-type";
  /** Header: the length the client declared for an upload. */
  public static final String CONTENT_LENGTH = "content-length";
  /** Header: the variant of a download ({@code w480}, {@code cover}: a name from the media's variants). */
  public static final String VARIANT = "variant";
  /** Header: the HTTP Range header value of a download. */
  public static final String RANGE = "range";
  /** Header {@code "true"}: this piece is the last one. */
  public static final String LAST = "last";
  /** Header {@code "true"}: the uploading client gave up. */
  public static final String ABORT = "abort";
  /** Header of a download step: {@code next} or {@code cancel}. */
  public static final String ACTION = "action";
  /** How long one step may wait for the other side. */
  public static final long STEP_TIMEOUT_MS = 60_000;

  private final Vertx vertx;

  private MediaClient(Vertx vertx) {
    this.vertx = vertx;
    registerCodec(vertx);
  }

  /** A client on {@code vertx}'s event bus. */
  public static MediaClient create(Vertx vertx) {
    return new MediaClient(vertx);
  }

  /**
   * Registers the codec that carries coded failures as message bodies (the service-proxy code does the same; both
   * ends of a transfer need it).
   */
  public static void registerCodec(Vertx vertx) {
    MediaAttachments.registerCodec(vertx);
  }

  private static DeliveryOptions step() {
    return new DeliveryOptions().setSendTimeout(STEP_TIMEOUT_MS);
  }

  /**
   * Uploads {@code body} for {@code actor}; completes with {@code {id, kind, content_type, size}}. The stream is
   * paused here and read only as fast as the service stores it.
   *
   * @param contentType    the declared content type (may be null)
   * @param declaredLength the declared length in bytes, or -1 when unknown
   */
  public Future<JsonObject> upload(long actor, String contentType, long declaredLength, ReadStream<Buffer> body) {
    body.pause();
    DeliveryOptions open = step().addHeader(ACTOR, Long.toString(actor))
        .addHeader(CONTENT_LENGTH, Long.toString(declaredLength));
    if (contentType != null) {
      open.addHeader(CONTENT_TYPE, contentType);
    }
    return vertx.eventBus().<Object>request(UPLOAD_ADDRESS, Buffer.buffer(), open)
        .compose(ack -> new Sender(ack, body).start());
  }

  /** Sends the body piece by piece, each after the service acknowledged the previous one. */
  private static final class Sender {
    private final ReadStream<Buffer> body;
    private final Promise<JsonObject> result = Promise.promise();
    private Message<Object> ack;
    private Buffer pending = Buffer.buffer();
    private boolean inFlight;
    private boolean ended;
    private boolean aborted;

    Sender(Message<Object> ack, ReadStream<Buffer> body) {
      this.ack = ack;
      this.body = body;
    }

    Future<JsonObject> start() {
      body.handler(data -> {
        pending.appendBuffer(data);
        if (!inFlight && pending.length() >= CHUNK_BYTES) {
          body.pause();
          sendChunk();
        }
      });
      body.endHandler(v -> {
        ended = true;
        if (!inFlight) {
          sendLast();
        }
      });
      body.exceptionHandler(this::abort);
      body.resume();
      return result.future();
    }

    private void sendChunk() {
      inFlight = true;
      Buffer chunk = pending.getBuffer(0, CHUNK_BYTES);
      pending = pending.getBuffer(CHUNK_BYTES, pending.length());
      ack.<Object>replyAndRequest(chunk, step()).onComplete(ar -> {
        inFlight = false;
        if (ar.failed()) {
          result.tryFail(ar.cause());
          return;
        }
        ack = ar.result();
        if (aborted) {
          ack.reply(null, new DeliveryOptions().addHeader(ABORT, "true"));
        } else if (pending.length() >= CHUNK_BYTES) {
          sendChunk();
        } else if (ended) {
          sendLast();
        } else {
          body.resume();
        }
      });
    }

    private void sendLast() {
      inFlight = true;
      Buffer rest = pending;
      pending = Buffer.buffer();
      ack.<Object>replyAndRequest(rest, step().addHeader(LAST, "true")).onComplete(ar -> {
        if (ar.failed()) {
          result.tryFail(ar.cause());
        } else if (ar.result().body() instanceof JsonObject) {
          result.tryComplete((JsonObject) ar.result().body());
        } else {
          result.tryFail(new IllegalStateException("the media service answered an upload without a description"));
        }
      });
    }

    private void abort(Throwable cause) {
      if (aborted) {
        return;
      }
      aborted = true;
      if (!inFlight) {
        ack.reply(null, new DeliveryOptions().addHeader(ABORT, "true"));
      }
      result.tryFail(cause);
    }
  }

  /**
   * Opens a download of {@code mediaId} for {@code viewer} (0 = anonymous), of the byte range {@code range} (an HTTP
   * {@code Range} header value, or null for all of it). Nothing is sent until {@link Download#pipeTo} asks for it.
   */
  public Future<Download> read(long viewer, long mediaId, String range) {
    return read(viewer, mediaId, null, range);
  }

  /** Opens a download of {@code variant} of a media (null: the media itself); see {@link #read(long, long, String)}. */
  public Future<Download> read(long viewer, long mediaId, String variant, String range) {
    DeliveryOptions open = step().addHeader(VIEWER, Long.toString(viewer)).addHeader(MEDIA, Long.toString(mediaId));
    if (variant != null) {
      open.addHeader(VARIANT, variant);
    }
    if (range != null) {
      open.addHeader(RANGE, range);
    }
    return vertx.eventBus().<Object>request(READ_ADDRESS, null, open).map(Download::new);
  }

  /** The view of {@code mediaId} for {@code viewer} (see {@link #INFO_ADDRESS}). */
  public Future<JsonObject> info(long viewer, long mediaId) {
    DeliveryOptions ask = step().addHeader(VIEWER, Long.toString(viewer)).addHeader(MEDIA, Long.toString(mediaId));
    return vertx.eventBus().<JsonObject>request(INFO_ADDRESS, null, ask).map(Message::body);
  }

  /** An authorised download: what will be sent, and the means to receive it. */
  public static final class Download {
    private final JsonObject info;
    private Message<Object> cursor;
    private boolean done;

    private Download(Message<Object> opened) {
      this.info = (JsonObject) opened.body();
      this.cursor = opened;
    }

    /** {@code {id, kind, content_type, size, start, end, length, partial, etag}}. */
    public JsonObject info() {
      return info.copy();
    }

    /**
     * Receives the bytes piece by piece and writes them to {@code out}, asking for the next piece only when the
     * previous one was written; completes after the last piece (it does not end {@code out}).
     */
    public Future<Void> pipeTo(WriteStream<Buffer> out) {
      if (done) {
        return Future.failedFuture(new IllegalStateException("download already consumed"));
      }
      done = true;
      Promise<Void> finished = Promise.promise();
      next(out, finished);
      return finished.future();
    }

    private void next(WriteStream<Buffer> out, Promise<Void> finished) {
      cursor.<Object>replyAndRequest(null, step().addHeader(ACTION, "next")).onComplete(ar -> {
        if (ar.failed()) {
          finished.tryFail(ar.cause());
          return;
        }
        Message<Object> piece = ar.result();
        cursor = piece;
        boolean last = "true".equals(piece.headers().get(LAST));
        out.write((Buffer) piece.body()).onComplete(written -> {
          if (written.failed()) {
            if (!last) {
              piece.reply(null, new DeliveryOptions().addHeader(ACTION, "cancel"));
            }
            finished.tryFail(written.cause());
          } else if (last) {
            finished.tryComplete();
          } else {
            next(out, finished);
          }
        });
      });
    }

    /** Ends the download without receiving (more of) it. */
    public void cancel() {
      if (!done) {
        done = true;
        cursor.reply(null, new DeliveryOptions().addHeader(ACTION, "cancel"));
      }
    }
  }
}
