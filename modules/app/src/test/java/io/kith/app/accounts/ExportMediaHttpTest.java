package io.kith.app.accounts;

import io.kith.app.support.Reply;
import io.kith.app.support.TestKith;
import io.kith.app.support.User;
import io.kith.platform.testkit.KithTestKit;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("An export carries the user's own uploads, byte for byte, and nobody else's")
class ExportMediaHttpTest {

  private TestKith kith;

  @BeforeAll
  void start() {
    kith = new TestKith(TestKith.config("accounts", "relations", "feeds", "gateway")
        .put("accounts", new JsonObject().put("register-max-per-address", 100_000)
            .put("export-domains", new JsonArray().add("accounts").add("media"))), "x") {
    };
  }

  @AfterAll
  void stop() {
    if (kith != null) {
      kith.close();
    }
  }

  @Test
  @DisplayName("media/media.json lists each upload of the user and media/files/<id>.<ext> holds its stored bytes")
  void uploadsInTheArchive() throws IOException {
    User user = kith.register();
    User other = kith.register();
    long first = kith.uploadImage(user);
    long second = kith.uploadImage(user);
    long theirs = kith.uploadImage(other);

    long id = kith.post("/me/export", user, null).expect(202).getLong("export_id");
    kith.awaitPage("/me/exports/" + id, user, "the export ready", s -> "ready".equals(s.getString("state")));
    Reply download = kith.get("/me/exports/" + id + "/download", user);
    assertEquals(200, download.status(), download.text());
    Map<String, byte[]> zip = new HashMap<>();
    try (ZipInputStream in = new ZipInputStream(new ByteArrayInputStream(download.body().getBytes()))) {
      for (ZipEntry e = in.getNextEntry(); e != null; e = in.getNextEntry()) {
        zip.put(e.getName(), in.readAllBytes());
      }
    }

    JsonArray listed = new JsonArray(new String(zip.get("media/media.json"), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(List.of(first, second), listed.stream().map(m -> ((JsonObject) m).getLong("id")).toList());
    for (long media : List.of(first, second)) {
      byte[] stored = kith.get("/media/" + media, user).body().getBytes();
      byte[] archived = zip.get("media/files/" + media + ".png");
      assertNotNull(archived, "media/files/" + media + ".png in " + zip.keySet());
      assertTrue(Arrays.equals(stored, archived), "the archive holds the stored bytes of " + media);
    }
    assertTrue(zip.keySet().stream().noneMatch(name -> name.contains(Long.toString(theirs))),
        "another user's upload is not exported: " + zip.keySet());
    JsonObject manifest = new JsonObject(new String(zip.get("manifest.json"), java.nio.charset.StandardCharsets.UTF_8));
    assertEquals(2L, manifest.getJsonObject("domains").getJsonObject("media").getJsonObject("files")
        .getLong("media.json"));
  }
}
