package io.kith.app.accounts;

import io.kith.app.accounts.AccountsKith.User;
import io.kith.platform.testkit.Await;
import io.kith.platform.testkit.KithTestKit;
import io.kith.platform.testkit.Outbox;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.kith.app.accounts.AccountsKith.newAddress;
import static io.kith.app.accounts.AccountsKith.newEmail;
import static io.kith.app.accounts.AccountsKith.newPhone;
import static io.kith.app.accounts.AccountsKith.unique;

@ExtendWith(KithTestKit.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@DisplayName("Logging in by an unverified email or phone (accounts.login-requires-verified), codes from the dev outbox")
class VerifiedLoginHttpTest {

  private AccountsKith open;
  private AccountsKith strict;

  @BeforeAll
  void start() {
    open = AccountsKith.start();
    strict = AccountsKith.start(new JsonObject().put("accounts", new JsonObject()
        .put("login-requires-verified", true)));
  }

  @AfterAll
  void stop() {
    if (open != null) {
      open.close();
    }
    if (strict != null) {
      strict.close();
    }
  }

  @Test
  @DisplayName("with login-requires-verified an unverified email or phone does not log in, the username does, "
      + "and the email does once verified")
  void strictLogin() {
    String email = newEmail();
    String phone = newPhone();
    User user = strict.register(unique("Str"), email, phone);
    strict.login(email, user.password(), newAddress()).problem(401, "invalid_credentials");
    strict.login(phone, user.password(), newAddress()).problem(401, "invalid_credentials");
    strict.login(user.username(), user.password(), newAddress()).expect(200);

    strict.confirmCode(user, "email", Await.result(Outbox.code(strict.client(), email))).expect(200);
    strict.login(email, user.password(), newAddress()).expect(200);
  }

  @Test
  @DisplayName("by default an unverified email logs in while one account claims it, and no account once two do")
  void defaultLogin() {
    String email = newEmail();
    User first = open.register(unique("Fst"), email, null);
    open.login(email, first.password(), newAddress()).expect(200);
    // the first code is in the outbox before the second is sent, so the newest code there is the second's
    Await.result(Outbox.code(open.client(), email));

    User second = open.register(unique("Snd"), email, null);
    open.login(email, first.password(), newAddress()).problem(401, "invalid_credentials");
    open.login(email, second.password(), newAddress()).problem(401, "invalid_credentials");

    open.confirmCode(second, "email", Await.result(Outbox.code(open.client(), email))).expect(200);
    open.login(email, second.password(), newAddress()).expect(200);
    open.login(email, first.password(), newAddress()).problem(401, "invalid_credentials");
  }
}
