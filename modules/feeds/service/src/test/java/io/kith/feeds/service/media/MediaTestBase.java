package io.kith.feeds.service.media;

import io.kith.feeds.api.FeedsInternal;
import io.kith.feeds.api.MediaClient;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.ModuleTestBase;
import io.kith.platform.testkit.TestImages;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.streams.ReadStream;
import io.vertx.core.streams.WriteStream;
import io.vertx.serviceproxy.ServiceBinder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;


/**
 * Deploys {@link MediaVerticle} on the test stores with small limits, next to a stand-in feeds service whose only
 * working method, {@code visiblePosts}, answers from {@link #visible} (the real feeds service is not part of these
 * tests), and talks to it through {@link MediaClient}. The store is also used directly for attach and detach, which
 * the feeds service calls.
 */
@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class MediaTestBase extends ModuleTestBase {

  static final int IMAGE_MAX = 64 * 1024;
  static final int VIDEO_MAX = 800 * 1024;
  static final int UPLOADS_PER_WINDOW = 12;

  protected MediaClient media;
  protected MediaStore store;
  /** "viewer:post" pairs the stand-in feeds service calls visible. */
  protected final Set<String> visible = ConcurrentHashMap.newKeySet();
  private Context context;

  /** The {@code feeds.media} settings of the test node. */
  protected JsonObject mediaConfig() {
    return new JsonObject().put("image-max-bytes", IMAGE_MAX).put("video-max-bytes", VIDEO_MAX)
        .put("uploads-per-window", UPLOADS_PER_WINDOW);
  }

  @BeforeAll
  void deploy() throws Exception {
    startPlatform(new JsonObject().put("feeds", new JsonObject().put("media",
        mediaConfig())));
    FeedsInternal feeds = (FeedsInternal) Proxy.newProxyInstance(FeedsInternal.class.getClassLoader(),
        new Class<?>[] {FeedsInternal.class}, (proxy, method, args) -> {
          if (method.getName().equals("visiblePosts")) {
            long viewer = (Long) args[0];
            @SuppressWarnings("unchecked") List<Long> posts = (List<Long>) args[1];
            JsonArray items = new JsonArray();
            posts.stream().filter(p -> visible.contains(viewer + ":" + p)).forEach(items::add);
            return Future.succeededFuture(new JsonObject().put("items", items));
          }
          return Future.failedFuture("not part of the media tests");
        });
    new ServiceBinder(vertx).setAddress(FeedsInternal.ADDRESS).register(FeedsInternal.class, feeds);
    await(vertx.deployVerticle(new MediaVerticle(platform)));
    media = MediaClient.create(vertx);
    store = new MediaStore(platform.mongo(), platform.ids());
    await(store.ensureIndexes());
    context = vertx.getOrCreateContext();
  }

  /** Runs {@code work} on one event-loop context, as the gateway does. */
  protected <T> Future<T> onContext(Supplier<Future<T>> work) {
    Promise<T> promise = Promise.promise();
    context.runOnContext(v -> work.get().onComplete(promise));
    return promise.future();
  }

  protected static long newUser() {
    return KithTestKit.newUserId();
  }

  // ---------------------------------------------------------------- bytes

  protected static Buffer withHead(int size, int... head) {
    byte[] bytes = new byte[size];
    ThreadLocalRandom.current().nextBytes(bytes);
    for (int i = 0; i < head.length; i++) {
      bytes[i] = (byte) head[i];
    }
    return Buffer.buffer(bytes);
  }

  protected static Buffer withAscii(Buffer buffer, int at, String text) {
    for (int i = 0; i < text.length(); i++) {
      buffer.setByte(at + i, (byte) text.charAt(i));
    }
    return buffer;
  }

  protected static Buffer png(int size) {
    return withHead(size, 0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A);
  }

  protected static Buffer jpeg(int size) {
    return withHead(size, 0xFF, 0xD8, 0xFF, 0xE0);
  }

  protected static Buffer gif(int size) {
    return withAscii(withHead(size), 0, "GIF89a");
  }

  protected static Buffer webp(int size) {
    return withAscii(withAscii(withHead(size), 0, "RIFF"), 8, "WEBP");
  }

  protected static Buffer mp4(int size) {
    return withAscii(withAscii(withHead(size, 0, 0, 0, 0x18), 4, "ftyp"), 8, "isom");
  }

  protected static Buffer quicktime(int size) {
    return withAscii(withAscii(withHead(size, 0, 0, 0, 0x14), 4, "ftyp"), 8, "qt  ");
  }

  protected static Buffer webm(int size) {
    return withAscii(withHead(size, 0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x82, 0x84), 8, "webm");
  }

  /** A real PNG the pipeline decodes (the made-up bytes above fail it, and failed media cannot be attached). */
  protected static Buffer realPng() {
    return Buffer.buffer(TestImages.png(40, 30));
  }

  private static volatile Buffer video;

  /** A real few-frame MP4 the pipeline decodes, encoded once per test JVM (ffmpeg takes a moment). */
  protected static synchronized Buffer realMp4() throws IOException {
    if (video == null) {
      video = Buffer.buffer(TestVideos.mp4(64, 48, 3));
    }
    return video;
  }

  // ---------------------------------------------------------------- transfers

  /** Uploads {@code bytes} in pieces of 64 KiB, declaring the length. */
  protected Future<JsonObject> upload(long actor, String type, Buffer bytes) {
    return upload(actor, type, bytes, bytes.length(), new PieceStream(bytes, 64 * 1024, null));
  }

  protected Future<JsonObject> upload(long actor, String type, Buffer bytes, long declared, PieceStream body) {
    return onContext(() -> media.upload(actor, type, declared, body));
  }

  /** Uploads and waits: the new media id. */
  protected long uploaded(long actor, String type, Buffer bytes) throws Exception {
    return await(upload(actor, type, bytes)).getLong("id");
  }

  /** A download's description and bytes. */
  protected record Read(JsonObject info, Buffer bytes) {
  }

  protected Future<Read> read(long viewer, long mediaId, String range) {
    return onContext(() -> media.read(viewer, mediaId, range).compose(download -> {
      Collector out = new Collector();
      return download.pipeTo(out).map(v -> new Read(download.info(), out.bytes));
    }));
  }

  /** The media's record as stored (for checks on the store itself), or null. */
  protected JsonObject record(long mediaId) throws Exception {
    return await(platform.mongo().findOne(MediaStore.ITEMS, new JsonObject().put("_id", mediaId), null));
  }

  /** GridFS documents (files and chunks) of a stored file. */
  protected long gridFsDocuments(String file) throws Exception {
    JsonObject oid = new JsonObject().put("$oid", file);
    return await(platform.mongo().count(MediaStore.CHUNKS, new JsonObject().put("files_id", oid)))
        + await(platform.mongo().count(MediaStore.FILES, new JsonObject().put("_id", oid)));
  }

  /** A body delivered in pieces, honouring pause/resume/fetch, that ends or fails after the last piece. */
  protected final class PieceStream implements ReadStream<Buffer> {
    private final Deque<Buffer> pieces = new ArrayDeque<>();
    private final Throwable failure;
    private Handler<Buffer> handler;
    private Handler<Void> endHandler;
    private Handler<Throwable> exceptionHandler;
    private long demand = Long.MAX_VALUE;
    private boolean emitting;
    private boolean finished;
    /** Pieces handed out so far. */
    int emitted;

    PieceStream(Buffer bytes, int pieceSize, Throwable failAtEnd) {
      for (int i = 0; i < bytes.length(); i += pieceSize) {
        pieces.add(bytes.getBuffer(i, Math.min(bytes.length(), i + pieceSize)));
      }
      this.failure = failAtEnd;
    }

    @Override
    public ReadStream<Buffer> exceptionHandler(Handler<Throwable> h) {
      exceptionHandler = h;
      return this;
    }

    @Override
    public ReadStream<Buffer> handler(Handler<Buffer> h) {
      handler = h;
      return this;
    }

    @Override
    public ReadStream<Buffer> pause() {
      demand = 0;
      return this;
    }

    @Override
    public ReadStream<Buffer> resume() {
      return fetch(Long.MAX_VALUE);
    }

    @Override
    public ReadStream<Buffer> fetch(long amount) {
      demand = demand + amount < 0 ? Long.MAX_VALUE : demand + amount;
      context.runOnContext(v -> drain());
      return this;
    }

    @Override
    public ReadStream<Buffer> endHandler(Handler<Void> h) {
      endHandler = h;
      return this;
    }

    private void drain() {
      if (emitting) {
        return;
      }
      emitting = true;
      try {
        while (demand > 0 && !pieces.isEmpty() && handler != null) {
          if (demand != Long.MAX_VALUE) {
            demand--;
          }
          emitted++;
          handler.handle(pieces.poll());
        }
        if (pieces.isEmpty() && demand > 0 && !finished) {
          finished = true;
          if (failure != null) {
            if (exceptionHandler != null) {
              exceptionHandler.handle(failure);
            }
          } else if (endHandler != null) {
            endHandler.handle(null);
          }
        }
      } finally {
        emitting = false;
      }
    }
  }

  /** Collects what a download writes. */
  protected static final class Collector implements WriteStream<Buffer> {
    final Buffer bytes = Buffer.buffer();
    final List<Integer> writes = new ArrayList<>();

    @Override
    public WriteStream<Buffer> exceptionHandler(Handler<Throwable> handler) {
      return this;
    }

    @Override
    public Future<Void> write(Buffer data) {
      writes.add(data.length());
      bytes.appendBuffer(data);
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> end() {
      return Future.succeededFuture();
    }

    @Override
    public WriteStream<Buffer> setWriteQueueMaxSize(int maxSize) {
      return this;
    }

    @Override
    public boolean writeQueueFull() {
      return false;
    }

    @Override
    public WriteStream<Buffer> drainHandler(Handler<Void> handler) {
      return this;
    }
  }
}
