package io.kith.accounts.service;

import io.kith.platform.media.MediaAttachments;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

/**
 * A profile photo from an upload ({@code photo_media}): the media is attached to the profile before the profile
 * names it, and whoever may see the profile may read it (see {@link MediaAttachments}).
 */
final class ProfilePhotos {

  private final Vertx vertx;
  private final ProfileCache cache;
  private final Relationships relationships;

  ProfilePhotos(Vertx vertx, ProfileCache cache, Relationships relationships) {
    this.vertx = vertx;
    this.cache = cache;
    this.relationships = relationships;
  }

  /**
   * Attaches the upload a validated change sets as {@code photo_media} to the actor's profile; fails with
   * {@code invalid_media} (400) when it is not the actor's upload. Nothing to do for other changes.
   */
  Future<Void> attach(long actor, JsonObject change) {
    Object media = change.getJsonObject("set").getValue(Profiles.PHOTO_MEDIA);
    if (!(media instanceof Number n)) {
      return Future.succeededFuture();
    }
    return MediaAttachments.attach(vertx, actor, n.longValue(), MediaAttachments.PROFILE, actor).mapEmpty();
  }

  /** Whether {@code viewer} may see {@code userId}'s profile (and so its photo): a known user, no block either way. */
  Future<Boolean> mayRead(long viewer, long userId) {
    if (viewer <= 0) {
      return Future.succeededFuture(false);
    }
    if (viewer == userId) {
      return Future.succeededFuture(true);
    }
    return Future.all(cache.get(userId), relationships.between(viewer, userId)).map(both ->
        both.resultAt(0) != null && !both.<JsonObject>resultAt(1).getBoolean("blocked", false));
  }
}
