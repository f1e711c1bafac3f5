import { describe, expect, it } from "vitest";
import { signWebhook } from "./signature";

describe("webhook signature", () => {
  it("signs as the Standard Webhooks spec's own example", () => {
    // The spec's test vector (standard-webhooks, libraries' shared tests).
    const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
    const sig = signWebhook(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, '{"test": 2432232314}');
    expect(sig).toBe("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
  });
});
