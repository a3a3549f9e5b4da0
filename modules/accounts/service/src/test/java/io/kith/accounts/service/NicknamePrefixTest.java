package io.kith.accounts.service;

import io.kith.platform.page.Page;
import io.kith.platform.page.PageRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;

class NicknamePrefixTest extends AccountsTestBase {

  @Test
  @DisplayName("a prefix with regular-expression characters matches literally, never as a pattern")
  void prefixIsLiteral() throws Exception {
    String tag = UUID.randomUUID().toString().substring(0, 8);
    JsonObject literal = register(new JsonObject());
    JsonObject other = register(new JsonObject());
    await(accounts.updateProfile(idOf(literal), new JsonObject().put("nickname", "x.(" + tag + ")*")));
    await(accounts.updateProfile(idOf(other), new JsonObject().put("nickname", "xa(" + tag + ")")));
    JsonArray found = await(accounts.searchByNickname(idOf(other), "x.(" + tag, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items");
    assertEquals(1, found.size(), found.encode());
    assertEquals(idOf(literal), found.getJsonObject(0).getLong("id"));
    assertEquals(0, await(accounts.searchByNickname(idOf(other), ".*" + tag, PageRequest.first(10))
        .map(Page::toJson)).getJsonArray("items").size());
  }
}
