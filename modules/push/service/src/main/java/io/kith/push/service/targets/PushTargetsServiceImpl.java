package io.kith.push.service.targets;

import io.kith.push.api.PushTargetsService;
import io.kith.push.service.delivery.Preferences;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/** The push-targets service: delegates to its features. */
final class PushTargetsServiceImpl implements PushTargetsService {

  private final Targets targets;
  private final Preferences preferences;

  PushTargetsServiceImpl(Targets targets, Preferences preferences) {
    this.targets = targets;
    this.preferences = preferences;
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

  @Override
  public Future<JsonObject> preferences(long actor) {
    return preferences.of(actor);
  }

  @Override
  public Future<JsonObject> setPreferences(long actor, JsonObject changes) {
    return preferences.set(actor, changes);
  }
}
