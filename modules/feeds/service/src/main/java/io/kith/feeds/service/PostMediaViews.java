package io.kith.feeds.service;

import io.kith.feeds.service.media.MediaStore;
import io.kith.feeds.service.media.MediaVerticle;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps the media views a post carries ({@code media: [{id, kind, ..., state, variants}]}, copied when the post was
 * published) up to date when a video attached while it was processed settles: MongoDB first, then the post's cached
 * copy is dropped, as for any change of a post. A post stored just as its video settled reads the media again after
 * its insert ({@link #afterInsert}), so the view cannot be left behind in {@code processing}.
 */
final class PostMediaViews implements MediaVerticle.PostsUsing {

  private final PostStore posts;
  private final PostCache cache;
  private final MediaStore media;

  PostMediaViews(PostStore posts, PostCache cache, MediaStore media) {
    this.posts = posts;
    this.cache = cache;
    this.media = media;
  }

  @Override
  public Future<Void> settled(long mediaId, List<Long> postIds, JsonObject view) {
    return posts.replaceMedia(postIds, mediaId, view)
        .compose(v -> Future.all(postIds.stream().map(cache::changed).toList())).mapEmpty();
  }

  /** After a post's insert: the views of its media that were still processing, read again and stored if settled. */
  Future<Void> afterInsert(JsonObject post) {
    List<Long> processing = new ArrayList<>();
    post.getJsonArray("media", new JsonArray()).forEach(m -> {
      if ("processing".equals(((JsonObject) m).getString("state"))) {
        processing.add(((JsonObject) m).getLong("id"));
      }
    });
    if (processing.isEmpty()) {
      return Future.succeededFuture();
    }
    long postId = post.getLong("_id");
    return media.views(processing).compose(views -> Future.all(views.values().stream()
        .filter(view -> !"processing".equals(view.getString("state")))
        .map(view -> settled(view.getLong("id"), List.of(postId), view)).toList())).mapEmpty();
  }
}
