package io.kith.platform.media;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import io.vertx.serviceproxy.ServiceExceptionMessageCodec;

import java.util.function.BiFunction;

/**
 * The event-bus contract between the media store (feeds' media sub-package) and the domains whose objects use an
 * uploaded media: a profile's photo (accounts), a chat image (messaging), an activity's cover (activities).
 *
 * <p><b>Attaching</b> ({@link #ATTACH_ADDRESS}): the owning domain asks the media store to record that media
 * {@code media}, uploaded by {@code owner}, is used by object {@code object} of domain {@code domain}; the answer is
 * the media's view {@code {id, kind, content_type, size, state, ...}} (once processed, with its dimensions and
 * {@code variants} with their URLs; a video still {@code processing} settles later, announced by the feeds event
 * {@code MediaProcessed} to the domains carrying it), or the failure {@code invalid_media} (400) when the
 * media does not exist, is not completely uploaded, failed processing (a video still processing may be attached), or
 * was uploaded by someone else. Attaching twice is harmless.
 *
 * <p><b>Reading</b>: who may read an attached media is decided by the owner of the object, not by the media store:
 * each domain answers {@link #accessAddress(String)} with whether {@code viewer} may see {@code object} (accounts:
 * whoever may see the profile; messaging: the conversation's members; activities: whoever may see the activity).
 * The media store asks these when a reader is neither the uploader nor allowed through a post.
 *
 * <p>This lives in the platform, not in feeds' api, because accounts uses it and feeds depends on accounts' api: a
 * domain dependency either way would make a cycle.
 */
public final class MediaAttachments {

  /** Address of attach requests, answered by the media store. */
  public static final String ATTACH_ADDRESS = "kith.feeds.media.attach";
  /** Prefix of the addresses at which each domain answers who may read media attached to its objects. */
  public static final String ACCESS_PREFIX = "kith.media.access.";
  /** Domain name of a profile's photo (the object is the user id). */
  public static final String PROFILE = "accounts";
  /** Domain name of a chat image (the object is the conversation id). */
  public static final String CONVERSATION = "messaging";
  /** Domain name of an activity's cover (the object is the activity id). */
  public static final String ACTIVITY = "activities";

  private static final long TIMEOUT_MS = 10_000;

  private MediaAttachments() {
  }

  /** The address at which {@code domain} answers access questions about media attached to its objects. */
  public static String accessAddress(String domain) {
    return ACCESS_PREFIX + domain;
  }

  /** Registers the codec that carries coded failures as message bodies (both ends need it; idempotent). */
  public static void registerCodec(Vertx vertx) {
    try {
      vertx.eventBus().registerDefaultCodec(ServiceException.class, new ServiceExceptionMessageCodec());
    } catch (IllegalStateException alreadyRegistered) {
      // registered by a service proxy or another client
    }
  }

  /**
   * Attaches media {@code mediaId} of {@code owner} to {@code object} of {@code domain}; completes with the media's
   * descriptor, or fails with {@code invalid_media} (a {@link ServiceException}) when the owner cannot use it, and
   * with {@code unavailable} (503) when no media store answers (a deployment without the feeds module).
   */
  public static Future<JsonObject> attach(Vertx vertx, long owner, long mediaId, String domain, long object) {
    registerCodec(vertx);
    JsonObject request = new JsonObject().put("owner", owner).put("media", mediaId).put("domain", domain)
        .put("object", object);
    return vertx.eventBus().<JsonObject>request(ATTACH_ADDRESS, request,
            new DeliveryOptions().setSendTimeout(TIMEOUT_MS)).map(reply -> reply.body())
        .recover(e -> e instanceof ReplyException re && (re.failureType() == ReplyFailure.NO_HANDLERS
            || re.failureType() == ReplyFailure.TIMEOUT)
            ? Failures.fail(KithErrors.UNAVAILABLE, "the media store did not answer; try again later")
            : Future.failedFuture(e));
  }

  /**
   * Answers access questions of the media store for {@code domain}: {@code mayRead(viewer, object)} (viewer 0 is
   * anonymous) decides; a failure of it answers no. Completes when the consumer is registered.
   */
  public static Future<MessageConsumer<JsonObject>> serveAccess(Vertx vertx, String domain,
                                                                BiFunction<Long, Long, Future<Boolean>> mayRead) {
    MessageConsumer<JsonObject> consumer = vertx.eventBus().consumer(accessAddress(domain), message -> {
      JsonObject body = message.body();
      mayRead.apply(body.getLong("viewer", 0L), body.getLong("object", 0L))
          .otherwise(false)
          .onSuccess(allowed -> message.reply(Boolean.TRUE.equals(allowed)));
    });
    return consumer.completion().map(consumer);
  }

  /**
   * Asks {@code domain} whether {@code viewer} may read media attached to {@code object}; no (rather than a failure)
   * when the domain does not answer, so an unreachable domain hides its media instead of showing them.
   */
  public static Future<Boolean> mayRead(Vertx vertx, String domain, long viewer, long object) {
    return vertx.eventBus().<Boolean>request(accessAddress(domain),
            new JsonObject().put("viewer", viewer).put("object", object),
            new DeliveryOptions().setSendTimeout(TIMEOUT_MS))
        .map(reply -> Boolean.TRUE.equals(reply.body()))
        .otherwise(false);
  }
}
