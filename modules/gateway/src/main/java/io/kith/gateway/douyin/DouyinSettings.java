package io.kith.gateway.douyin;

import io.kith.platform.config.Bounds;
import io.vertx.core.json.JsonObject;

/**
 * The {@code douyin} configuration section.
 *
 * @param enabled        whether the gateway serves the douyin routes under {@code /douyin/}
 * @param publicUrl      the scheme and host clients reach Kith at, for {@code play_url}, {@code cover_url} and
 *                       {@code avatar}; empty: the scheme and {@code Host} of each request
 * @param pageSize       videos, users, comments and messages in one douyin list (those clients do not page most lists)
 * @param uploadMaxBytes largest {@code publish/action} request, the video file included
 */
record DouyinSettings(boolean enabled, String publicUrl, int pageSize, long uploadMaxBytes) {

  /** The section's name in the configuration. */
  static final String SECTION = "douyin";

  static DouyinSettings from(JsonObject section) {
    Bounds b = Bounds.of(SECTION, section);
    String url = b.text("public-url");
    return new DouyinSettings(b.flag("enabled"), url.endsWith("/") ? url.substring(0, url.length() - 1) : url,
        b.within("page-size", 1, 100), b.within("upload-max-bytes", 1L, 1L << 32));
  }
}
