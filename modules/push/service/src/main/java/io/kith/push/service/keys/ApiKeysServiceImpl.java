package io.kith.push.service.keys;

import io.kith.platform.error.Failures;
import io.kith.platform.error.KithErrors;
import io.kith.platform.id.IdGenerator;
import io.kith.platform.token.Sessions;
import io.kith.push.api.ApiKeys;
import io.kith.push.api.ApiKeysErrors;
import io.kith.push.api.ApiKeysService;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Makes, lists, revokes and checks API keys; making, listing and revoking are for admins ({@link OperatorCheck}). */
final class ApiKeysServiceImpl implements ApiKeysService {

  static final int MAX_NAME = 100;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final ApiKeyStore store;
  private final IdGenerator ids;
  private final OperatorCheck operator;

  ApiKeysServiceImpl(ApiKeyStore store, IdGenerator ids, OperatorCheck operator) {
    this.store = store;
    this.ids = ids;
    this.operator = operator;
  }

  @Override
  public Future<JsonObject> create(long actor, JsonObject request) {
    return operator.check(actor, null, null).compose(v -> Failures.guard(() -> {
      Object name = request.getValue("name");
      if (!(name instanceof String) || ((String) name).isBlank() || ((String) name).length() > MAX_NAME) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "name", "name must be 1 to " + MAX_NAME
            + " characters");
      }
      Object scopes = request.getValue("scopes");
      if (!(scopes instanceof JsonArray) || ((JsonArray) scopes).isEmpty()) {
        return Failures.failField(KithErrors.VALIDATION_FAILED, "scopes", "scopes must list some of " + ApiKeys.SCOPES);
      }
      Set<String> kept = new LinkedHashSet<>();
      for (Object s : (JsonArray) scopes) {
        if (!ApiKeys.SCOPES.contains(s)) {
          return Failures.failField(KithErrors.VALIDATION_FAILED, "scopes", "unknown scope " + s + "; known: "
              + ApiKeys.SCOPES);
        }
        kept.add((String) s);
      }
      byte[] bytes = new byte[32];
      RANDOM.nextBytes(bytes);
      String key = ApiKeys.PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
      JsonObject doc = new JsonObject().put("_id", ids.next()).put("name", ((String) name).trim())
          .put("scopes", new JsonArray(List.copyOf(kept))).put("hash", Sessions.sha256(key))
          .put("created", System.currentTimeMillis());
      return store.insert(doc)
          .compose(x -> operator.record(actor, null, "api_key.create", "api_key", doc.getLong("_id"),
              new JsonObject().put("name", doc.getString("name")).put("scopes", doc.getJsonArray("scopes"))))
          .map(x -> ApiKeyStore.view(doc).put("key", key));
    }));
  }

  @Override
  public Future<JsonObject> list(long actor) {
    return operator.check(actor, null, null).compose(v -> store.all()).map(all -> new JsonObject()
        .put("items", new JsonArray(all.stream().map(ApiKeyStore::view).toList())));
  }

  @Override
  public Future<JsonObject> revoke(long actor, long id) {
    return operator.check(actor, null, null).compose(v -> store.revoke(id, System.currentTimeMillis()))
        .compose(key -> key == null ? Failures.fail(ApiKeysErrors.API_KEY_NOT_FOUND, "no API key " + id)
            : operator.record(actor, null, "api_key.revoke", "api_key", id,
                new JsonObject().put("name", key.getString("name"))).map(v -> ApiKeyStore.view(key)));
  }

  @Override
  public Future<JsonObject> authenticate(String key, String scope) {
    if (key == null || !key.startsWith(ApiKeys.PREFIX)) {
      return Failures.fail(ApiKeysErrors.API_KEY_REQUIRED, "this route takes a server API key ("
          + ApiKeys.PREFIX + "...) as Authorization: Bearer or X-Api-Key, not a user's access token");
    }
    return store.byHash(Sessions.sha256(key)).compose(doc -> {
      if (doc == null) {
        return Failures.fail(ApiKeysErrors.API_KEY_INVALID, "unknown API key");
      }
      if (doc.getValue("revoked") != null) {
        return Failures.fail(ApiKeysErrors.API_KEY_REVOKED, "this API key was revoked");
      }
      if (scope != null && !doc.getJsonArray("scopes", new JsonArray()).contains(scope)) {
        return Future.failedFuture(Failures.withExtra(ApiKeysErrors.INSUFFICIENT_SCOPE,
            "this API key lacks the scope " + scope, new JsonObject().put("scope", scope)));
      }
      long now = System.currentTimeMillis();
      // the use is recorded best-effort: a failed write must not refuse a valid key
      return store.used(doc.getLong("_id"), now).recover(e -> Future.succeededFuture())
          .map(v -> ApiKeyStore.view(doc));
    });
  }
}
