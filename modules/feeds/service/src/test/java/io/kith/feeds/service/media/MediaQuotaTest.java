package io.kith.feeds.service.media;

import io.vertx.core.json.JsonObject;
import io.vertx.serviceproxy.ServiceException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A user keeps at most {@code feeds.media.max-unattached} uploads that no post uses. */
class MediaQuotaTest extends MediaTestBase {

  private static final int MAX_UNATTACHED = 3;

  @Override
  protected JsonObject mediaConfig() {
    return super.mediaConfig().put("uploads-per-window", 100).put("max-unattached", MAX_UNATTACHED);
  }

  @Test
  @DisplayName("uploads beyond the unattached limit are 409 until one is attached; other users are not affected")
  void unattachedLimit() throws Exception {
    long owner = newUser();
    long first = uploaded(owner, "image/png", realPng());
    for (int i = 1; i < MAX_UNATTACHED; i++) {
      uploaded(owner, "image/png", png(500));
    }
    ServiceException full = failsWith("too_many_unattached_media", upload(owner, "image/png", png(500)));
    assertEquals(MAX_UNATTACHED, full.getDebugInfo().getJsonObject("extra").getInteger("max_unattached"));
    uploaded(newUser(), "image/png", png(500));
    await(store.attach(owner, List.of(first), 1L));
    uploaded(owner, "image/png", png(500));
    failsWith("too_many_unattached_media", upload(owner, "image/png", png(500)));
  }
}
