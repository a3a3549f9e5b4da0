package io.kith.push.service.targets;

import io.kith.push.api.PushTargetsService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The push-targets service: delegates to its features. */
final class PushTargetsServiceImpl implements PushTargetsService {

  private final Targets targets;

  PushTargetsServiceImpl(Targets targets) {
    this.targets = targets;
  }

  @Override
  public Future<JsonObject> register(long actor, String sessionId, JsonObject target) {
    return targets.register(actor, sessionId, target);
  }

  @Override
  public Future<JsonObject> list(long actor) {
    return targets.list(actor);
  }

  @Override
  public Future<Void> remove(long actor, long targetId) {
    return targets.remove(actor, targetId);
  }
}
